package mpi;

import org.apache.log4j.Logger;

/**
 * Gives MPJ Express the logger that {@code MPI.Init} would: its {@code Struct} constructor logs
 * through it, so unit tests that build a Struct without a job need it.
 */
public final class MpjLogger
{
    private MpjLogger()
    {
    }

    public static synchronized void install()
    {
        if (MPI.logger == null)
        {
            MPI.logger = Logger.getLogger(MPI.class);
        }
    }
}
