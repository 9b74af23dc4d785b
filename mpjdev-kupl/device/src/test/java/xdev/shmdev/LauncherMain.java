package xdev.shmdev;

import java.util.List;

import mpjrun.JobSpec;
import mpjrun.ShmJob;

/**
 * A launcher process for the tests, as {@code bin/mpjrun -np N -dev shm} would be:
 * {@code <np> <class path> <main class> [args...]}; exits with the job's status.
 */
final class LauncherMain
{
    private LauncherMain()
    {
    }

    public static void main(final String[] args)
    {
        System.exit(ShmJob.run(new JobSpec(Integer.parseInt(args[0]), List.of(args[1]), List.of(), args[2],
            List.of(args).subList(3, args.length), true)));
    }
}
