package mpi.rma;

import java.util.Iterator;
import java.util.ServiceLoader;

import mpi.rma.spi.SharedMemoryProvider;

/**
 * Finds the {@link SharedMemoryProvider} once, through the class loader that loaded this API
 * (in MPJ Express's multicore mode every rank has its own, and so its own provider).
 */
final class Providers
{
    private static SharedMemoryProvider provider;

    private Providers()
    {
    }

    static synchronized SharedMemoryProvider get()
    {
        if (provider == null)
        {
            final Iterator<SharedMemoryProvider> found =
                ServiceLoader.load(SharedMemoryProvider.class, Providers.class.getClassLoader()).iterator();
            if (!found.hasNext())
            {
                throw new RmaException(ErrorClass.ERR_OTHER, "Win.allocateShared: no shared-memory provider found: " +
                    "put the mpjdev-kupl jar on the class path next to the api jar");
            }
            provider = found.next();
        }
        return provider;
    }
}
