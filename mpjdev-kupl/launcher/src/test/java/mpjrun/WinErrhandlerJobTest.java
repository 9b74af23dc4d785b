package mpjrun;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code WinErrhandler.ERRORS_ARE_FATAL} in real jobs (MPI-4.1 §9.3, §12.6.1): a failing call on such a window
 * prints the error and ends the job, the rank that waits for the failed one included, on a device of one JVM per
 * rank and on one of threads in one JVM.
 */
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WinErrhandlerJobTest
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);

    @ParameterizedTest
    @EnumSource(value = MpjDevice.class, names = {"SHM", "MULTICORE"})
    void shouldAbortTheJobWithTheErrorPrinted(final MpjDevice device) throws Exception
    {
        final JobResult result = MpjJobs.run(device, new JobSpec(2, MpjJobs.currentClassPath(), List.of(),
            WinErrhandlerProgram.class.getName(), List.of(), false), JOB_TIMEOUT);
        final String output = result.output();

        assertFalse(result.timedOut(), "rank 0 waits for rank 1 in a barrier: only the abort ends the job\n" + output);
        assertFalse(result.succeeded(), output);
        assertTrue(output.contains("rank 1 ready"), output);
        assertTrue(output.contains("mpi.rma: MPI_ERR_RANK on Win[rank 1 of 2") &&
            output.contains("whose error handler is WinErrhandler.ERRORS_ARE_FATAL: aborting the process. " +
                "MPI_ERR_RANK: Win.put: targetRank=5 is not a rank"), output);
        assertFalse(output.contains("rank 1 went on after the put"), output);
        System.out.printf("ERRORS_ARE_FATAL on %s: the job ended in %d ms, launcher status %d%n", device.deviceName(),
            result.elapsed().toMillis(), result.launcherExitCode());
    }
}
