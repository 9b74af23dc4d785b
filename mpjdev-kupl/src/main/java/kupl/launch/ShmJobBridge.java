package kupl.launch;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Calls {@code kupl.launch.ShmJob.run(JobSpec)}, the shm device's launcher, by name: it is built
 * apart from this launcher, and until it is there every {@code -dev shm} job ends with
 * {@link ShmDeviceMissingException} instead of failing to compile or link.
 */
final class ShmJobBridge
{
    static final String SHM_JOB_CLASS = "kupl.launch.ShmJob";

    private ShmJobBridge()
    {
    }

    /** Thrown when {@code kupl.launch.ShmJob} is not on the class path. */
    static final class ShmDeviceMissingException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        ShmDeviceMissingException(final Throwable cause)
        {
            super("the shm device is not built yet: " + SHM_JOB_CLASS + ".run(kupl.launch.JobSpec) is not on the " +
                "class path (" + cause + ")", cause);
        }
    }

    /** Whether the shm device's launcher is on the class path. */
    static boolean isAvailable()
    {
        try
        {
            Class.forName(SHM_JOB_CLASS);
            return true;
        }
        catch (final ClassNotFoundException e)
        {
            return false;
        }
    }

    /**
     * Runs {@code spec} on the shm device.
     *
     * @return the job's exit code (the first failing rank's, or 0).
     * @throws ShmDeviceMissingException if the device is not built.
     */
    static int run(final JobSpec spec)
    {
        final Method run;
        try
        {
            run = Class.forName(SHM_JOB_CLASS).getMethod("run", JobSpec.class);
        }
        catch (final ClassNotFoundException | NoSuchMethodException e)
        {
            throw new ShmDeviceMissingException(e);
        }
        try
        {
            return (Integer) run.invoke(null, spec);
        }
        catch (final IllegalAccessException e)
        {
            throw new ShmDeviceMissingException(e);
        }
        catch (final InvocationTargetException e)
        {
            if (e.getCause() instanceof final RuntimeException runtime)
            {
                throw runtime;
            }
            if (e.getCause() instanceof final Error error)
            {
                throw error;
            }
            throw new IllegalStateException("the shm job failed: " + e.getCause(), e.getCause());
        }
    }
}
