package mpjrun.agent;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import mpjrun.JobResult;
import mpjrun.MpjJobs;

/** MPJ Express's own starter ({@code java -jar $MPJ_HOME/lib/starter.jar ...}), with the agent given as users give it. */
public final class MpjStarter
{
    private MpjStarter()
    {
    }

    /**
     * Runs the starter with {@code args} and the agent in {@code JAVA_TOOL_OPTIONS}, in this JVM's working
     * directory, and waits at most {@code timeout}.
     */
    public static JobResult run(final Path mpjHome, final Path agentJar, final Duration timeout, final List<String> args)
        throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(MpjJobs.java().toString(), "-jar",
            mpjHome.resolve("lib/starter.jar").toString()));
        command.addAll(args);
        return MpjJobs.runCommand(command, Map.of("MPJ_HOME", mpjHome.toString(),
            "PATH", MpjJobs.java().getParent() + File.pathSeparator + System.getenv("PATH"),
            "JAVA_TOOL_OPTIONS", "-javaagent:" + agentJar), Path.of(System.getProperty("user.dir")), timeout);
    }
}
