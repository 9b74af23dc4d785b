package mpjrun;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Windows on MPJ Express's hybdev, in real jobs: {@code bin/mpjrun -dev hybdev} with a machines file of two
 * loopback names (two JVMs of two ranks each) and a daemon of the test's own. Every flavour is refused on every
 * rank with ERR_UNSUPPORTED_OPERATION naming niodev and shm, at once (hybdev's wildcard receives would make each
 * fence take 2 s), and the job goes on; on niodev the same program makes every window.
 */
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HybdevWindowsTest
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);
    private static final String MAIN = HybdevWindowsProgram.class.getName();
    private static final List<String> FLAVOURS = List.of("Win.create", "Win.allocate", "Win.allocateShared",
        "Win.createDynamic");

    @Test
    void shouldRefuseEveryWindowFlavourOnHybdevOnEveryRankAndGoOn() throws Exception
    {
        final JobResult result;
        try (NiodevDaemon daemon = NiodevDaemon.start(MpjHome.prepare(MpjHome.defaultDirectory()), MpjJobs.java(),
            Map.of(), List.of("127.0.0.1", "127.0.0.2")))
        {
            result = MpjJobs.runCommand(List.of(MpjRunTest.repositoryRoot().resolve("bin/mpjrun").toString(),
                "-np", "4", "-dev", "hybdev", "-machinesfile", daemon.machinesFile().toString(),
                "-cp", MpjRunTest.testClasses(), MAIN),
                Map.of("KUPL_MPJRUN_CLASSPATH", System.getProperty("java.class.path"),
                    "JAVA_HOME", System.getProperty("java.home"), "KUPL_MPJ_HOME", daemon.home().toString()),
                Path.of(System.getProperty("user.dir")), JOB_TIMEOUT).requireSuccess();
        }

        for (int rank = 0; rank < 4; rank++)
        {
            for (final String flavour : FLAVOURS)
            {
                expectLine(result, "rank " + rank + " " + flavour + " ERR_UNSUPPORTED_OPERATION");
            }
            expectLine(result, "rank " + rank + " allreduce sum=6");
            expectLine(result, "DONE rank " + rank);
        }
        expectLine(result, "rank 0 says: MPI_ERR_UNSUPPORTED_OPERATION: Win.create: windows are not supported on " +
            "MPJ Express's -dev hybdev, whose MPI.ANY_SOURCE receives (on which a window's target agent waits) sleep " +
            "2 s between polls, so every fence, lock or flush would take seconds; run the job with -dev niodev (TCP " +
            "between all ranks) or -dev shm (shared memory within each node, niodev between nodes), e.g. " +
            "bin/mpjrun -np 4 -dev niodev -machinesfile machines ...");
        System.out.printf("hybdev, 4 ranks in 2 JVMs, every flavour refused: the job took %d ms%n",
            result.elapsed().toMillis());
    }

    @Test
    void shouldMakeEveryWindowFlavourOnNiodev() throws Exception
    {
        final JobResult result = MpjJobs.run(MpjDevice.NIODEV, new JobSpec(2, MpjJobs.currentClassPath(), List.of(),
            MAIN, List.of(), false), JOB_TIMEOUT).requireSuccess();

        for (int rank = 0; rank < 2; rank++)
        {
            for (final String flavour : FLAVOURS)
            {
                expectLine(result, "rank " + rank + " " + flavour + " made");
            }
            expectLine(result, "DONE rank " + rank);
        }
    }

    private static void expectLine(final JobResult result, final String line)
    {
        assertTrue(result.output().lines().anyMatch(line::equals), () -> "no line '" + line + "' in\n" +
            result.output());
    }
}
