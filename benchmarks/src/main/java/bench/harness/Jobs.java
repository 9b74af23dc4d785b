package bench.harness;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import mpjrun.MpjHome;
import mpjrun.process.EngineJob;

/**
 * What every benchmark needs to start its rank programs: where their classes are, the project's MPJ_HOME, and
 * an engine job of one JVM per process run to its end.
 */
public final class Jobs
{
    private Jobs()
    {
    }

    /** The class directory or jar the benchmarks were loaded from (the ranks' class path). */
    public static Path codeLocation()
    {
        try
        {
            return Path.of(Jobs.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (final URISyntaxException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /** The project's MPJ_HOME ({@link MpjHome#defaultDirectory()}), unless {@code --mpj-home} names another. */
    public static Path defaultMpjHome()
    {
        return MpjHome.defaultDirectory();
    }

    /**
     * Runs {@code main} as one {@link EngineJob} of {@code processes} JVMs to its end and returns each rank's output.
     *
     * @throws IllegalStateException if a rank exits with a status other than 0 (its output in the message).
     */
    public static List<String> runLocalJob(final Class<?> main, final int processes, final Map<String, String> env,
        final List<String> args, final Duration timeout) throws Exception
    {
        try (EngineJob job = EngineJob.start(main, processes, env, args))
        {
            final int[] codes = job.awaitExit(timeout);
            final List<String> outputs = new ArrayList<>();
            for (int rank = 0; rank < processes; rank++)
            {
                if (codes[rank] != 0)
                {
                    throw new IllegalStateException(main.getSimpleName() + " with " + processes + " processes " + env +
                        ": rank " + rank + " exited with " + codes[rank] + "; output:\n" + job.outputs());
                }
                outputs.add(job.output(rank));
            }
            return outputs;
        }
    }
}
