package mpjrun.agent;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;

import mpjrun.DeviceName;
import mpjrun.JobSpec;
import mpjrun.StarterOption;

/**
 * What MPJ Express's starter ({@code runtime.starter.MPJRun.main}) does first when the agent is
 * installed: if its command line asks for {@code -dev shm}, the job goes to the shm device's launcher
 * ({@code mpjrun.ShmJob}) and the starter exits with the job's code; any other command line is
 * left to MPJ Express untouched.
 *
 * <p>Why here rather than deeper in MPJRun: MPJRun rejects unknown device names in its argument
 * parser, then runs either its multicore path (threads, not JVMs) or its cluster path (a daemon per
 * host, a port handshake every device must do). Neither fits one JVM per rank on one node, and the
 * shm launcher already does that job, with rank output, exit codes and peer death handled.
 */
public final class ShmStarter
{
    /** What {@link #run} returns when the command line is not for the shm device. */
    public static final int NOT_SHM = -1;
    /** Exit code for a command line that asks for shm but is wrong (as {@code bin/mpjrun}). */
    static final int EXIT_USAGE = 2;

    private static final String SHM = DeviceName.SHM.text();

    private ShmStarter()
    {
    }

    /**
     * Runs the job if {@code args} (MPJRun's command line) asks for {@code -dev shm}.
     *
     * @return the job's exit code, or {@link #NOT_SHM} if MPJ Express should go on as usual.
     */
    public static int run(final String[] args)
    {
        if (!asksForShm(args))
        {
            return NOT_SHM;
        }
        final JobSpec spec;
        try
        {
            spec = parse(args);
        }
        catch (final IllegalArgumentException | IOException e)
        {
            System.err.println("mpjrun (kupl agent): " + e.getMessage());
            return EXIT_USAGE;
        }
        return mpjrun.MpjRun.runShm(spec);
    }

    static boolean asksForShm(final String[] args)
    {
        for (int i = 0; i + 1 < args.length && args[i].startsWith("-"); i++)
        {
            if (args[i].equals(StarterOption.DEV.text()) && args[i + 1].equals(SHM))
            {
                return true;
            }
            if (StarterOption.takesValue(args[i]))
            {
                i++;
            }
        }
        return false;
    }

    /** MPJRun's command line as a job: options up to the class name (or {@code -jar}), then the program's arguments. */
    static JobSpec parse(final String[] args) throws IOException
    {
        // MPJRun's default: as many ranks as cores.
        int processes = Runtime.getRuntime().availableProcessors();
        final List<String> classPath = new ArrayList<>();
        final List<String> jvmArgs = new ArrayList<>();
        String mainClass = null;
        int i = 0;
        for (; i < args.length && mainClass == null; i++)
        {
            final String arg = args[i];
            if (!arg.startsWith("-"))
            {
                mainClass = arg;
            }
            else
            {
                final StarterOption option = StarterOption.of(arg).orElse(null);
                if (option == null)
                {
                    jvmArgs.add(arg); // a JVM option, as MPJRun takes it
                    continue;
                }
                if (option.takesValue() && i + 1 >= args.length)
                {
                    throw new IllegalArgumentException(arg + " needs a value");
                }
                final String value = option.takesValue() ? args[++i] : null;
                switch (option)
                {
                    case NP -> processes = processCount(value);
                    case CP, CLASSPATH ->
                        classPath.addAll(Arrays.stream(value.split(File.pathSeparator)).filter(e -> !e.isEmpty())
                            .toList());
                    case JAR ->
                    {
                        classPath.add(value);
                        mainClass = mainClassOf(value);
                    }
                    default ->
                    {
                        // -dev (shm, known already) and MPJRun's options that mean nothing to one node's shm job.
                    }
                }
            }
        }
        if (mainClass == null)
        {
            throw new IllegalArgumentException("the main class is missing: name the class whose main each rank runs");
        }
        return new JobSpec(processes, classPath, jvmArgs, mainClass, List.of(Arrays.copyOfRange(args, i, args.length)),
            false);
    }

    private static int processCount(final String value)
    {
        final int processes;
        try
        {
            processes = Integer.parseInt(value);
        }
        catch (final NumberFormatException e)
        {
            // MPJRun's rule for a word that is not a number.
            return Runtime.getRuntime().availableProcessors();
        }
        if (processes < 1)
        {
            throw new IllegalArgumentException("-np " + value + ": give the number of ranks, 1 or more");
        }
        return processes;
    }

    private static String mainClassOf(final String jar) throws IOException
    {
        try (JarFile file = new JarFile(jar))
        {
            final String mainClass = file.getManifest() == null ? null
                : file.getManifest().getMainAttributes().getValue("Main-Class");
            if (mainClass == null)
            {
                throw new IllegalArgumentException("-jar " + jar + ": its manifest names no Main-Class");
            }
            return mainClass;
        }
    }
}
