package xdev.shmdev;

import java.util.List;

import kupl.launch.JobSpec;
import kupl.launch.ShmJob;

/** Manual runner: QuickRun <np> <main class> [args...] with this JVM's test classes on the ranks' class path. */
final class QuickRun
{
    private QuickRun()
    {
    }

    public static void main(final String[] args)
    {
        final List<String> rest = List.of(args).subList(2, args.length);
        final int code = ShmJob.run(new JobSpec(Integer.parseInt(args[0]), List.of(System.getProperty("test.classes")),
            List.of(), args[1], rest, true));
        System.out.println("exit " + code);
        System.exit(code);
    }
}
