package mpjrun;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.List;
import java.util.jar.JarFile;

/**
 * Finds the kupl agent jar that {@link ShmJob} gives its ranks as {@code -javaagent}, so that MPJ Express's
 * collectives run through shared memory there: the system property {@value #PROPERTY} (set by
 * {@code bin/mpjrun} and the build's tests), else this class's own jar when it is the agent jar (the job was
 * started through the agent, from {@code mpjrun.sh -dev shm}). Without one, the ranks run MPJ Express's
 * collectives over the device's messages.
 */
final class AgentJar
{
    /** System property: path of the kupl agent jar. */
    static final String PROPERTY = "kupl.agent.jar";
    private static final String JAVAAGENT = "-javaagent:";

    private AgentJar()
    {
    }

    /** The agent jar, or null; says on {@code err} why a jar named by the property is not used. */
    static Path locate(final PrintStream err)
    {
        final String named = System.getProperty(PROPERTY);
        if (named != null && !named.isBlank())
        {
            final Path path = Path.of(named).toAbsolutePath();
            if (isAgent(path))
            {
                return path;
            }
            err.println("mpjrun: " + PROPERTY + "=" + named + " is not the kupl agent jar (no file, or no " +
                AgentJarContract.MARKER_ATTRIBUTE + " in its manifest), so collectives use MPJ Express's messages: build it with " +
                "mvn -pl mpjdev-kupl/agent -am package, or give its path");
            return null;
        }
        final Path own = ownJar();
        return own != null && isAgent(own) ? own : null;
    }

    /** Whether JVM options give the JVM the kupl agent with a {@code -javaagent:} of their own. */
    static boolean givenIn(final List<String> options)
    {
        return options.stream().anyMatch(AgentJar::isAgentOption);
    }

    /**
     * {@code toolOptions} (the value of {@code JAVA_TOOL_OPTIONS}) without its {@code -javaagent:} options that
     * name the kupl agent; every other option is kept as it was written.
     */
    static String withoutAgent(final String toolOptions)
    {
        final StringBuilder kept = new StringBuilder();
        for (final String option : toolOptions.trim().split("\\s+"))
        {
            if (!option.isEmpty() && !isAgentOption(option))
            {
                kept.append(kept.isEmpty() ? "" : " ").append(option);
            }
        }
        return kept.toString();
    }

    private static boolean isAgentOption(final String option)
    {
        if (!option.startsWith(JAVAAGENT))
        {
            return false;
        }
        final String jar = option.substring(JAVAAGENT.length());
        final int arguments = jar.indexOf('=');
        final String path = arguments < 0 ? jar : jar.substring(0, arguments);
        return !path.isBlank() && isAgent(Path.of(path).toAbsolutePath());
    }

    private static Path ownJar()
    {
        final CodeSource source = AgentJar.class.getProtectionDomain().getCodeSource();
        try
        {
            return source == null ? null : Path.of(source.getLocation().toURI());
        }
        catch (final URISyntaxException | IllegalArgumentException e)
        {
            return null;
        }
    }

    private static boolean isAgent(final Path path)
    {
        if (!Files.isRegularFile(path))
        {
            return false;
        }
        try (JarFile jar = new JarFile(path.toFile()))
        {
            // The agent's own attribute, not its class name: this module names no class of the agent's.
            return jar.getManifest() != null &&
                jar.getManifest().getMainAttributes().getValue(AgentJarContract.MARKER_ATTRIBUTE) != null;
        }
        catch (final IOException e)
        {
            return false;
        }
    }
}
