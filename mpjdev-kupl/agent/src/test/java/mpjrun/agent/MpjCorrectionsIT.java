package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent's corrections of MPJ Express ({@link CorrectionAdvice}) in real jobs, on every launch path that
 * gets them: {@code bin/mpjrun -dev shm} and {@code -dev multicore} (the woven classes), MPJ Express's own
 * starter with the agent in {@code JAVA_TOOL_OPTIONS} on multicore and shm, and niodev ranks given the agent as
 * a JVM option. docs/faults.md lists them.
 */
@Tag("slow")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MpjCorrectionsIT
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);
    private static final int RANKS = 3;
    private static Path agentJar;
    private static Path mpjHome;

    @BeforeAll
    static void findTheAgent() throws Exception
    {
        agentJar = PackagedAgent.jar();
        mpjHome = MpjHome.prepare(MpjHome.defaultDirectory());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"translate", "gather-null"})
    void shouldCorrectMpjExpressUnderBinMpjrunOnShm(final String check) throws Exception
    {
        final JobSpec spec = new JobSpec(RANKS, MpjJobs.currentClassPath(), List.of(),
            CorrectionsProgram.class.getName(), List.of(check), false);

        assertEveryRankOk(check, MpjJobs.run(MpjDevice.SHM, spec, JOB_TIMEOUT));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"translate", "gather-null"})
    void shouldCorrectMpjExpressUnderBinMpjrunOnMulticore(final String check) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(MpjJobs.java().toString(),
            "-Dkupl.agent.jar=" + agentJar, "-cp", System.getProperty("java.class.path"), "mpjrun.MpjRun",
            "-np", Integer.toString(RANKS), "-dev", "multicore", "-cp", testClasses(),
            CorrectionsProgram.class.getName(), check));

        assertEveryRankOk(check, MpjJobs.runCommand(command, Map.of(), Path.of(System.getProperty("user.dir")),
            JOB_TIMEOUT));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"multicore", "shm"})
    void shouldCorrectMpjExpressUnderItsOwnStarterWithTheAgent(final String device) throws Exception
    {
        for (final String check : List.of("translate", "gather-null"))
        {
            assertEveryRankOk(check, MpjStarter.run(mpjHome, agentJar, JOB_TIMEOUT, List.of("-np",
                Integer.toString(RANKS), "-dev", device, "-cp", testClasses(), CorrectionsProgram.class.getName(),
                check)));
        }
    }

    /** niodev's ranks get neither the agent nor the woven classes by themselves: a -javaagent option gives them. */
    @Test
    void shouldCorrectMpjExpressOnNiodevWhoseRanksAreGivenTheAgent() throws Exception
    {
        for (final String check : List.of("translate", "gather-null"))
        {
            final JobSpec spec = new JobSpec(RANKS, MpjJobs.currentClassPath(), List.of("-javaagent:" + agentJar),
                CorrectionsProgram.class.getName(), List.of(check), false);

            assertEveryRankOk(check, MpjJobs.run(MpjDevice.NIODEV, spec, JOB_TIMEOUT));
        }
    }

    @Test
    void shouldSayOnceWhatARecvFromADeadRankThrowsOnShm() throws Exception
    {
        final JobSpec spec = new JobSpec(2, MpjJobs.currentClassPath(), List.of(),
            CorrectionsProgram.class.getName(), List.of("dead-sender"), false);

        final JobResult result = MpjJobs.run(MpjDevice.SHM, spec, JOB_TIMEOUT);

        assertNotEquals(0, result.launcherExitCode(), result.output());
        final String line = result.output().lines().filter(l -> l.contains("recv failed: ")).findFirst().orElse("");
        assertTrue(line.contains("recv failed: mpi.MPIException: xdev.XDevException: ") && line.contains("rank 1 "),
            result.output());
        assertFalse(result.output().contains("mpi.MPIException: mpi.MPIException"), result.output());
    }

    private static void assertEveryRankOk(final String check, final JobResult result)
    {
        result.requireSuccess();
        for (int rank = 0; rank < RANKS; rank++)
        {
            assertTrue(result.output().contains(check + " ok rank " + rank), result.output());
        }
        assertEquals(RANKS, result.output().lines().filter(line -> line.contains(check + " ok rank ")).count(),
            result.output());
    }

    /** This module's test classes, as a user's -cp. */
    private static String testClasses()
    {
        return Path.of(System.getProperty("user.dir"), "target", "test-classes").toString() + File.pathSeparator;
    }
}
