package mpi.rma.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.spi.SharedMemoryProvider;

/**
 * Finds the {@link SharedMemoryProvider} once, through the class loader that loaded this API
 * (in MPJ Express's multicore mode every rank has its own, and so its own provider). With
 * several on the class path, the system property {@value #PROPERTY} names the one to use
 * (the conformance suite uses it to run its cases against deliberately broken providers).
 */
public final class Providers
{
    static final String PROPERTY = "mpi.rma.provider";

    private static SharedMemoryProvider provider;

    private Providers()
    {
    }

    public static synchronized SharedMemoryProvider get()
    {
        if (provider == null)
        {
            final String wanted = System.getProperty(PROPERTY);
            final List<String> names = new ArrayList<>();
            for (final SharedMemoryProvider candidate :
                ServiceLoader.load(SharedMemoryProvider.class, Providers.class.getClassLoader()))
            {
                names.add(candidate.name());
                if (wanted == null || wanted.equals(candidate.name()))
                {
                    provider = candidate;
                    break;
                }
            }
            if (provider == null)
            {
                throw new RmaException(ErrorClass.ERR_OTHER, "Win.allocateShared: " + (wanted == null ?
                    "no shared-memory provider found: put the kupl-device and kupl-engine jars on the class path next to the api jar" :
                    "no shared-memory provider named " + PROPERTY + "=" + wanted + " (found " + names + ")"));
            }
        }
        return provider;
    }
}
