package mpjrun;

import java.util.Arrays;
import java.util.Optional;

/**
 * The options of MPJ Express 0.44's starter ({@code runtime.starter.MPJRun.processInput}), each
 * spelled here once, with whether it takes a value. A job of one node uses {@link #NP}, {@link #DEV},
 * {@link #CP}, {@link #CLASSPATH} and {@link #JAR}; the others only matter to MPJ Express's own
 * paths. Anything else before the main class is a JVM option for the ranks.
 */
public enum StarterOption
{
    NP("-np", true),
    DEV("-dev", true),
    CP("-cp", true),
    CLASSPATH("-classpath", true),
    JAR("-jar", true),
    MACHINESFILE("-machinesfile", true),
    WDIR("-wdir", true),
    PSL("-psl", true),
    MXBOARDNUM("-mxboardnum", true),
    DPORT("-dport", true),
    DEBUG("-debug", true),
    SRC("-src", false),
    PROFILE("-profile", false),
    YARN("-yarn", false),
    DEBUG_YARN("-debugYarn", false),
    AM_MEM("-amMem", true),
    AM_CORES("-amCores", true),
    CONTAINER_MEM("-containerMem", true),
    CONTAINER_CORES("-containerCores", true),
    YARN_QUEUE("-yarnQueue", true),
    APP_NAME("-appName", true),
    AM_PRIORITY("-amPriority", true),
    MPJ_CONTAINER_PRIORITY("-mpjContainerPriority", true),
    HDFS_FOLDER("-hdfsFolder", true);

    private final String text;
    private final boolean takesValue;

    StarterOption(final String text, final boolean takesValue)
    {
        this.text = text;
        this.takesValue = takesValue;
    }

    /** The option as written on the command line. */
    public String text()
    {
        return text;
    }

    /** Whether the next argument is its value. */
    public boolean takesValue()
    {
        return takesValue;
    }

    /** The starter option written {@code argument}, if it is one. */
    public static Optional<StarterOption> of(final String argument)
    {
        return Arrays.stream(values()).filter(option -> option.text.equals(argument)).findFirst();
    }

    /** Whether {@code argument} is a starter option followed by its value. */
    public static boolean takesValue(final String argument)
    {
        return of(argument).map(StarterOption::takesValue).orElse(false);
    }
}
