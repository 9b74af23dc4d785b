package mpi.rma.internal.types;

import java.lang.reflect.Field;

import mpi.MPI;
import org.apache.log4j.Logger;

/**
 * Gives MPJ Express the logger that {@code MPI.Init} would: its {@code Struct} constructor logs
 * through it, so unit tests that build a Struct without a job need it. The field is package-private in
 * MPJ Express 0.44, so it is set by reflection (MPJ Express's jar is an automatic module, open to it).
 */
public final class MpjLogger
{
    private MpjLogger()
    {
    }

    /** Sets MPJ Express's logger unless it is set already; any test that builds a Struct calls it first. */
    public static synchronized void install()
    {
        try
        {
            final Field logger = MPI.class.getDeclaredField("logger");
            logger.setAccessible(true);
            if (logger.get(null) == null)
            {
                logger.set(null, Logger.getLogger(MPI.class));
            }
        }
        catch (final ReflectiveOperationException e)
        {
            throw new IllegalStateException("cannot give MPJ Express its logger: " + e, e);
        }
    }
}
