package mpi.rma.message;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjJobs;

/**
 * What the window tests of this package share: a job of one of their programs, and the check that
 * every rank printed {@code rank R CASE ok} for every case.
 */
final class CaseJobs
{
    private CaseJobs()
    {
    }

    /** A job of {@code program} on {@code ranks} ranks with this test's class path. */
    static JobSpec spec(final Class<?> program, final int ranks)
    {
        return new JobSpec(ranks, MpjJobs.currentClassPath(), List.of(), program.getName(), List.of(), false);
    }

    /** Fails naming the first missing line, with the job's output. */
    static void expectEveryCase(final JobResult result, final int ranks, final List<String> cases)
    {
        for (int rank = 0; rank < ranks; rank++)
        {
            for (final String name : cases)
            {
                final String line = "rank " + rank + " " + name + " ok";
                assertTrue(result.output().lines().anyMatch(line::equals), () -> "no '" + line + "' in\n" +
                    result.output());
            }
        }
    }
}
