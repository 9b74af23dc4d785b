package mpi.rma.kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import mpi.rma.internal.creation.ProcessFailureProgram;
import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A process that dies in any collective step of a shared window (the API's agreement, the
 * engine comm's creation, the allocation, a fence, a free) is reported to every survivor as
 * ERR_PROC_FAILED naming its rank, with the engine's {@code PeerDeathException} in the cause
 * chain; never as ERR_NO_MEM, ERR_RMA_SHARED or ERR_OTHER.
 *
 * <p>The steps that go through MPJ Express's Allgather run on the shm device only: it finds
 * dead ranks, while smpdev and niodev wait for them for ever. Those that wait in shared memory
 * run on every device. A death in an Allgather is found by whichever check comes first (the
 * device's, or the engine's after the callback fails), so those cases run several times.
 */
@Tag("slow")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ProcessFailureTest
{
    private static final int RANKS = 3;
    private static final int VICTIM = RANKS - 1;
    private static final Pattern FAILED = Pattern.compile("rank (\\d) STEP FAILED: (\\S+) (.*)");
    private static final Pattern CAUSES = Pattern.compile("rank (\\d) CAUSES: (.*)");

    @ParameterizedTest(name = "{0}: rank 2 dies ({2}) before {1}, try {3}")
    @CsvSource({
        "SHM, agreement, halt, 1",
        "SHM, comm, halt, 1",
        "SHM, comm, halt, 2",
        "SHM, alloc, halt, 1",
        "SHM, alloc, halt, 2",
        "SHM, fence, halt, 1",
        "SHM, free, halt, 1",
        "MULTICORE, fence, return, 1",
        "MULTICORE, free, return, 1",
        "NIODEV, free, halt, 1"})
    void shouldReportTheDeadRankAsProcFailed(final MpjDevice device, final String step, final String death,
        final int attempt, @TempDir final Path reports) throws Exception
    {
        final JobSpec spec = new JobSpec(RANKS, MpjJobs.currentClassPath(), List.of(),
            ProcessFailureProgram.class.getName(), List.of(step, death), false);
        final JobResult result = MpjJobs.run(device, spec, Duration.ofSeconds(60), MpjHome.defaultDirectory(),
            Map.of("KUPL_SHM_LIVENESS_MS", "100", ProcessFailureProgram.REPORTS_VARIABLE, reports.toString()));

        final String context = device + ", step " + step + ":\n" + result.summary() + "\n" + result.output();
        final List<Matcher> failed = matching(result, FAILED);
        final List<Matcher> causes = matching(result, CAUSES);
        assertEquals(VICTIM, failed.size(), "every survivor should fail\n" + context);
        assertEquals(VICTIM, causes.size(), context);
        for (int i = 0; i < VICTIM; i++)
        {
            assertEquals("ERR_PROC_FAILED", failed.get(i).group(2), context);
            assertTrue(failed.get(i).group(3).contains("rank " + VICTIM + " "), "the message names the dead rank\n" +
                context);
            assertTrue(causes.get(i).group(2).contains("kupl.PeerDeathException(deadRank=" + VICTIM + ")"),
                "the cause chain holds the engine's death\n" + context);
        }
    }

    private static List<Matcher> matching(final JobResult result, final Pattern pattern)
    {
        return result.output().lines().map(pattern::matcher).filter(Matcher::matches).toList();
    }
}
