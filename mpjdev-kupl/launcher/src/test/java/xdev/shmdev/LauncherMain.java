package xdev.shmdev;

import java.util.List;

import mpjrun.JobSpec;
import mpjrun.ShmJob;

/**
 * A launcher process for the tests, as {@code bin/mpjrun -np N -dev shm} would be:
 * {@code <np> <class path> <main class> [args...]}; exits with the job's status. The ranks' JVM
 * options, if any, come from the system property {@value #RANK_JVM_ARGS} (separated by spaces).
 */
final class LauncherMain
{
    static final String RANK_JVM_ARGS = "launcher.rankJvmArgs";

    private LauncherMain()
    {
    }

    public static void main(final String[] args)
    {
        final String rankJvmArgs = System.getProperty(RANK_JVM_ARGS, "").strip();
        System.exit(ShmJob.run(new JobSpec(Integer.parseInt(args[0]), List.of(args[1]),
            rankJvmArgs.isEmpty() ? List.of() : List.of(rankJvmArgs.split(" +")), args[2],
            List.of(args).subList(3, args.length), true)));
    }
}
