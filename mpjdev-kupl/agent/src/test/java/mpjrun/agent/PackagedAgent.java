package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** The agent jar this module packages, which its integration tests give rank JVMs with {@code -javaagent}. */
final class PackagedAgent
{
    private PackagedAgent()
    {
    }

    /** Its path, from Maven's {@code kupl.agent.jar}; fails the test if it is not there. */
    static Path jar()
    {
        final Path jar = Path.of(System.getProperty("kupl.agent.jar", "target/missing-agent.jar")).toAbsolutePath();
        assertTrue(Files.isRegularFile(jar), "no agent jar at " + jar + ": run in Maven's integration-test phase");
        return jar;
    }
}
