package mpjrun.agent.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import mpi.rma.Win;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import mpjrun.agent.MpjStarter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * MPI's progress rule on -dev shm with the collectives and windows through shared memory (the packaged agent):
 * {@link ProgressMatrixProgram}'s cells, every blocking collective and window synchronisation with every
 * kind of send left pending and the receive posted early and late, on 2 and 4 ranks, with large messages
 * through the staging rings and by direct reads, through the shm launcher and through MPJ Express's own
 * starter; the matrix catching a device that does not progress in other waits; and a random load with
 * collectives between the rounds ({@link RandomExchangeLoad}).
 */
@Tag("slow")
class ShmProgressIT
{
    private static final Duration MATRIX_TIMEOUT = Duration.ofSeconds(120);
    /** A cell takes milliseconds; the broken device's runs need only a short limit to show a hang. */
    private static final String BROKEN_CELL_LIMIT_S = "4";
    private static final Pattern LOAD_LINE = Pattern.compile("LOAD (\\d+) ok (\\d+) messages");
    private static Path agentJar;

    @BeforeAll
    static void findTheAgent()
    {
        agentJar = Path.of(System.getProperty("kupl.agent.jar", "target/missing-agent.jar")).toAbsolutePath();
        assertTrue(Files.isRegularFile(agentJar),
            "no agent jar at " + agentJar + ": run in Maven's integration-test phase");
    }

    @ParameterizedTest(name = "{0} ranks, direct reads {1}")
    @CsvSource({"2, false", "4, false", "2, true", "4, true"})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldCompleteEveryPendingSendWhateverCallItsRankWaitsIn(final int ranks, final boolean directReads)
        throws Exception
    {
        final JobResult result = launcher(ranks, List.of("-Dxdev.shmdev.directReads=" + directReads),
            ProgressMatrixProgram.class, List.of(), MATRIX_TIMEOUT);

        requireEveryRankOk(result, ranks, "PROGRESS %d ok " + cellCount());
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldCompleteEveryPendingSendUnderMpjExpressStarterWithTheAgent() throws Exception
    {
        final Path mpjHome = MpjHome.prepare(MpjHome.defaultDirectory());
        final JobResult result = MpjStarter.run(mpjHome, agentJar, MATRIX_TIMEOUT,
            List.of("-np", "4", "-dev", "shm", "-cp", programClassPath(), ProgressMatrixProgram.class.getName()));

        requireEveryRankOk(result, 4, "PROGRESS %d ok " + cellCount());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"BARRIER,BCAST,ALLREDUCE", "WIN_FENCE,PSCW,LOCK"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldCatchADeviceThatMovesMessagesOnlyInItsOwnWaits(final String syncs) throws Exception
    {
        final JobResult result = launcher(2, List.of("-Dxdev.shmdev.fault=no-progress-in-other-waits",
            "-Dxdev.shmdev.directReads=false"), ProgressMatrixProgram.class, List.of(BROKEN_CELL_LIMIT_S,
            syncs), Duration.ofSeconds(60));

        assertFalse(result.succeeded(), result.summary());
        final String first = syncs.split(",")[0];
        assertTrue(result.output().contains("HUNG in " + first + " x "), "a cell of " + first +
            " should hang on the broken device:\n" + result.output());
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldMoveARandomLoadWithCollectivesBetweenTheRounds() throws Exception
    {
        // Through the staging rings, which need the sender's progress: on 4 ranks of a 2-core machine the
        // default reads large messages directly instead.
        final JobResult staged = launcher(4, List.of("-Dxdev.shmdev.directReads=false"), RandomExchangeLoad.class,
            List.of("40"), Duration.ofSeconds(100));
        requireLoad(staged);
        final JobResult defaults = launcher(4, List.of(), RandomExchangeLoad.class, List.of("20"),
            Duration.ofSeconds(80));
        requireLoad(defaults);
    }

    private static void requireLoad(final JobResult result)
    {
        result.requireSuccess();
        final Matcher line = LOAD_LINE.matcher(result.output());
        final List<Long> messages = new ArrayList<>();
        while (line.find())
        {
            messages.add(Long.parseLong(line.group(2)));
        }
        assertEquals(4, messages.size(), result.output());
        // Every rank checked the same number of messages, and enough of them to have met every size.
        assertEquals(1, messages.stream().distinct().count(), result.output());
        assertTrue(messages.get(0) >= 300, result.output());
    }

    private static void requireEveryRankOk(final JobResult result, final int ranks, final String lineFormat)
    {
        result.requireSuccess();
        for (int rank = 0; rank < ranks; rank++)
        {
            assertTrue(result.output().contains(String.format(lineFormat, rank)),
                "rank " + rank + " did not finish every cell:\n" + result.output());
        }
    }

    /** Cells of the whole matrix. */
    private static int cellCount()
    {
        return Synchronisation.values().length * PendingSend.values().length *
            ProgressMatrixProgram.Timing.values().length;
    }

    /** A job through the shm launcher ({@code bin/mpjrun}'s), the agent given to every rank. */
    private static JobResult launcher(final int ranks, final List<String> jvmArgs, final Class<?> main,
        final List<String> args, final Duration timeout) throws Exception
    {
        final List<String> options = new ArrayList<>(List.of("-javaagent:" + agentJar));
        options.addAll(jvmArgs);
        return MpjJobs.run(MpjDevice.SHM, new JobSpec(ranks, MpjJobs.currentClassPath(), options, main.getName(),
            args, false), timeout);
    }

    /** This module's test classes and the API's classes, as a user's {@code -cp} for MPJ Express's starter. */
    private static String programClassPath() throws Exception
    {
        return Path.of(ProgressMatrixProgram.class.getProtectionDomain().getCodeSource().getLocation().toURI()) +
            File.pathSeparator + Path.of(Win.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
