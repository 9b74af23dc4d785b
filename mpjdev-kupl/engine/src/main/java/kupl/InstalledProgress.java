package kupl;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@link ProcessProgress} of this process, as transports installed it ({@link Waiter#installProcessProgress}):
 * progress is per process in MPI, so it lives here rather than in each window, where a window made by a layer
 * that does not know the transport (an {@code mpi.rma} window, a communicator's collectives) would wait
 * without it. A real job has one transport per process; tests that run ranks as threads of one JVM install
 * one per rank, and then every wait drives all of them.
 */
final class InstalledProgress
{
    /** Guarded by the class: what is installed, in order. */
    private static final List<ProcessProgress> INSTALLED = new ArrayList<>();
    /** Volatile: what waits run, rebuilt under the lock at each change, read by every waiting thread. */
    private static volatile ProcessProgress current = ProcessProgress.NONE;

    private InstalledProgress()
    {
    }

    static ProcessProgress current()
    {
        return current;
    }

    static synchronized void install(final ProcessProgress progress)
    {
        Objects.requireNonNull(progress, "progress");
        if (!INSTALLED.contains(progress))
        {
            INSTALLED.add(progress);
            current = combined();
        }
    }

    static synchronized void remove(final ProcessProgress progress)
    {
        if (INSTALLED.remove(progress))
        {
            current = combined();
        }
    }

    private static ProcessProgress combined()
    {
        return switch (INSTALLED.size())
        {
            case 0 -> ProcessProgress.NONE;
            case 1 -> INSTALLED.get(0);
            default -> new Several(List.copyOf(INSTALLED));
        };
    }

    /** Several transports in one process (ranks as threads): each pass drives every one. */
    private record Several(List<ProcessProgress> all) implements ProcessProgress
    {
        @Override
        public boolean makeProgress()
        {
            boolean worked = false;
            for (final ProcessProgress progress : all)
            {
                worked |= progress.makeProgress();
            }
            return worked;
        }

        @Override
        public String toString()
        {
            return all.toString();
        }
    }
}
