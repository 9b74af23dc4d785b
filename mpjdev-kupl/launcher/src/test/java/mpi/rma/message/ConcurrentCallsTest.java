package mpi.rma.message;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;

/**
 * MPJ Express carries calls from two threads of a rank at once on every device we use
 * ({@link ConcurrentCallsProgram}): the assumption under the message path's target agent
 * (docs/design.md#thread-safety-of-mpj-express-044).
 */
@Tag("slow")
@Timeout(value = 130, unit = TimeUnit.SECONDS)
class ConcurrentCallsTest
{
    @ParameterizedTest(name = "{0}")
    @EnumSource(MpjDevice.class)
    void shouldReceiveOnOneCommunicatorWhileAnotherThreadRunsCollectivesOnAnother(final MpjDevice device)
        throws Exception
    {
        runAndExpectOk(device, List.of());
    }

    /** niodev is left out: it loses the receiving thread's wake-up (see {@link ConcurrentCallsProgram}). */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = MpjDevice.class, names = {"MULTICORE", "SHM"})
    void shouldReceiveFromItsOwnProcessWhileAnotherThreadWaits(final MpjDevice device) throws Exception
    {
        runAndExpectOk(device, List.of("self"));
    }

    private static void runAndExpectOk(final MpjDevice device, final List<String> args) throws Exception
    {
        assumeTrue(MpjJobs.isAvailable(device), () -> "skipped: " + MpjHome.unavailableReason());
        final int ranks = 3;

        final JobResult result = MpjJobs.run(device, new JobSpec(ranks, MpjJobs.currentClassPath(), List.of(),
            ConcurrentCallsProgram.class.getName(), args, false), Duration.ofSeconds(120)).requireSuccess();

        for (int rank = 0; rank < ranks; rank++)
        {
            final String line = "rank " + rank + " concurrent ok";
            assertTrue(result.output().lines().anyMatch(line::equals), () -> "no '" + line + "' in\n" +
                result.output());
        }
    }
}
