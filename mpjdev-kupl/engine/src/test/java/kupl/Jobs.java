package kupl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import kupl.bootstrap.LocalJob;

/**
 * Runs a {@link LocalJob} of one of the {@code *Rank} programs to its end and keeps what the
 * assertions need: every exit code and every process's output. A job that does not end
 * within its time limit fails with all outputs ({@link LocalJob#awaitExit}); every process
 * is killed when the job is closed, whatever happened.
 */
final class Jobs
{
    /** Time limit of one job; the tests' {@code @Timeout} is above it. */
    static final Duration JOB_TIMEOUT = Duration.ofSeconds(40);

    /** A finished job. */
    record Finished(int[] exitCodes, List<String> outputs, String allOutputs)
    {
        /** Asserts every process exited with 0 and printed {@code line}. */
        Finished assertAllPrinted(final String line)
        {
            final int[] zeros = new int[exitCodes.length];
            assertArrayEquals(zeros, exitCodes, () -> "exit codes " + Arrays.toString(exitCodes) + "\n" + allOutputs);
            for (int rank = 0; rank < outputs.size(); rank++)
            {
                final int r = rank;
                assertTrue(outputs.get(rank).lines().anyMatch(line::equals),
                    () -> "rank " + r + " did not print '" + line + "'\n" + allOutputs);
            }
            return this;
        }

        /** The lines of {@code rank}'s output that start with {@code prefix}, prefix removed. */
        List<String> linesStartingWith(final int rank, final String prefix)
        {
            return outputs.get(rank).lines().filter(l -> l.startsWith(prefix))
                .map(l -> l.substring(prefix.length())).toList();
        }

        int size()
        {
            return exitCodes.length;
        }
    }

    private Jobs()
    {
    }

    static Finished run(final Class<?> main, final int size, final Map<String, String> env, final String... args)
        throws Exception
    {
        try (LocalJob job = LocalJob.start(main, size, env, List.of(args)))
        {
            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            final List<String> outputs = new java.util.ArrayList<>();
            for (int rank = 0; rank < size; rank++)
            {
                outputs.add(job.output(rank));
            }
            return new Finished(codes, outputs, job.outputs());
        }
    }
}
