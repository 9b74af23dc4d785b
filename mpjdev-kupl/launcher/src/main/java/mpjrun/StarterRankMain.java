package mpjrun;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;

import xdev.shmdev.ClusterShmDevice;

/**
 * The main class {@code bin/mpjrun} gives MPJ Express's starter for a program run on
 * {@code multicore}, {@code niodev} or {@code hybdev}: runs the program's {@code main}
 * (system property {@value #MAIN_PROPERTY}) with the arguments unchanged, and tells the
 * launcher how each rank ended, which the starter does not (it exits with 0 whatever the
 * ranks do):
 * <ul>
 * <li>a rank whose {@code main} throws prints {@code mpjrun: rank R failed: <exception>} on
 *     stderr before the exception goes on to MPJ Express as before;</li>
 * <li>with {@code -D}{@value #REPORT_PROPERTY}{@code =<file>} (multicore: every rank is a
 *     thread of one JVM on this node), each rank writes there how it ended, which rank called
 *     {@code System.exit} with which status ({@link ExitRecorder}), and whether the JVM's shutdown
 *     hooks ran ({@link RankReport}): the launcher's verdict comes from that file.</li>
 * <li>with {@code -D}{@value JobWatchClient#ADDRESS_PROPERTY} (niodev, hybdev: bin/mpjrun's
 *     {@link JobWatch}), the rank connects to the launcher before {@code main} and says how
 *     it ended; when another rank dies it ends itself ({@link JobWatchClient}).</li>
 * </ul>
 * The rank is {@code MPI.COMM_WORLD}'s, or, before {@code MPI.Init}, the first argument, which
 * MPJ Express's starter makes the rank.
 */
public final class StarterRankMain
{
    /** System property naming the program's main class. */
    public static final String MAIN_PROPERTY = "mpjrun.main";
    /**
     * System property naming a device of this project for a niodev job's ranks: {@code shm} runs
     * {@link ClusterShmDevice} (shared memory within each node, niodev between), set by {@code bin/mpjrun -dev
     * shm -machinesfile FILE} (or {@code -nodes N}).
     */
    public static final String DEVICE_PROPERTY = "mpjrun.device";
    /** System property naming the file the ranks report their end in (multicore only). */
    public static final String REPORT_PROPERTY = "mpjrun.rankReport";
    /** The start of the line a failed rank prints for the user (the verdict reads the report or the job watch). */
    static final String FAILED_PREFIX = "mpjrun: rank ";

    private StarterRankMain()
    {
    }

    public static void main(final String[] args) throws Throwable
    {
        final String className = System.getProperty(MAIN_PROPERTY);
        if (className == null || className.isBlank())
        {
            throw new IllegalStateException("mpjrun.StarterRankMain needs -D" + MAIN_PROPERTY + "=<main class> " +
                "(bin/mpjrun passes it)");
        }
        final Path report = reportFile(args);
        final Method main = findMain(className);
        // Before MPI.Init, so that a rank that dies or hangs in it is seen too; with -D mpjrun.watch only.
        final JobWatchClient watch = JobWatchClient.connect(isHybdev(args) ? WatchProtocol.UNKNOWN_RANK : rankOf(args),
            StarterRankMain::worldRank);
        installDevice(args);
        try
        {
            main.invoke(null, (Object)args);
        }
        catch (final InvocationTargetException e)
        {
            if (JobWatchClient.deadRank().isPresent())
            {
                // It threw because another rank died (a device that fails its waits): that rank is the one to name.
                System.err.println(FAILED_PREFIX + rankOf(args) + " gave up after rank " +
                    JobWatchClient.deadRank().getAsInt() + " died: " + e.getCause());
                System.err.flush();
                Runtime.getRuntime().halt(JobWatchClient.AFTER_ANOTHER_RANK);
            }
            System.err.println(FAILED_PREFIX + rankOf(args) + " failed: " + e.getCause());
            System.err.flush();
            if (report != null)
            {
                RankReport.append(report, RankReport.failed(rankOf(args)));
            }
            if (watch != null)
            {
                watch.failed(e.getCause());
            }
            throw e.getCause();
        }
        if (watch != null)
        {
            watch.done();
        }
        if (report != null)
        {
            RankReport.append(report, RankReport.returned(rankOf(args)));
        }
    }

    /**
     * Puts the device {@value #DEVICE_PROPERTY} names where MPJ Express's {@code MPJDev.init} uses it
     * instead of its own (it picks one only while {@code MPJDev.dev} is null).
     */
    private static void installDevice(final String[] args)
    {
        final String device = System.getProperty(DEVICE_PROPERTY);
        if (device == null || device.isBlank())
        {
            return;
        }
        if (!device.equals(DeviceName.SHM.text()))
        {
            throw new IllegalStateException("-D" + DEVICE_PROPERTY + "=" + device + ": the only device it names is " +
                DeviceName.SHM.text() + " (shared memory within each node, niodev between)");
        }
        if (args.length < 3 || !args[2].equals(DeviceName.NIODEV.text()))
        {
            throw new IllegalStateException("-D" + DEVICE_PROPERTY + "=" + device + " runs on a niodev job's ranks " +
                "(MPJ Express's starter with -dev niodev), but this rank was started for " +
                (args.length < 3 ? "no device" : args[2]));
        }
        mpjdev.javampjdev.MPJDev.dev = new ClusterShmDevice();
    }

    /**
     * The report file, if one was asked for: once per JVM, registers the hook that writes
     * {@value RankReport#END}; for this rank, starts recording its {@code System.exit} calls
     * ({@link ExitRecorder}) and registers the hook that says whether it had finalized.
     */
    private static Path reportFile(final String[] args)
    {
        final String file = System.getProperty(REPORT_PROPERTY);
        if (file == null || file.isBlank())
        {
            return null;
        }
        final Path report = Path.of(file);
        boolean first = false;
        // Every multicore rank has its own class loader, so a static flag is per rank: the JVM-wide one is a property.
        synchronized (System.getProperties())
        {
            if (System.getProperty(REPORT_PROPERTY + ".hook") == null)
            {
                System.setProperty(REPORT_PROPERTY + ".hook", "set");
                first = true;
                // Shutdown hooks run on System.exit, SIGTERM and a normal end, never on SIGKILL or a crash.
                Runtime.getRuntime().addShutdownHook(new Thread(() -> RankReport.append(report, RankReport.END),
                    "mpjrun-report"));
            }
        }
        ExitRecorder.install(report, () -> rankOf(args), first);
        recordFinalizeAtExit(report, args);
        return report;
    }

    /**
     * At the JVM's end, writes {@code finalized R} if this rank had called {@code MPI.Finalize}: a rank that
     * calls {@code System.exit(0)} after it (every rank having passed Finalize's barrier) cuts no rank off.
     * A hook per rank, since each rank thread has its own class loader and so its own {@code mpi.MPI}.
     */
    private static void recordFinalizeAtExit(final Path report, final String[] args)
    {
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            if (isFinalized())
            {
                RankReport.append(report, RankReport.finalized(rankOf(args)));
            }
        }, "mpjrun-report-rank"));
    }

    /** Whether this rank's MPI was initialised and then finalized (MPJ Express clears Initialized() in Finalize). */
    private static boolean isFinalized()
    {
        try
        {
            return mpi.MPI.COMM_WORLD != null && !mpi.MPI.Initialized();
        }
        catch (final RuntimeException e)
        {
            // mpi.MPIException is one: a rank whose MPI is half torn down is not known to be finalized.
            return false;
        }
    }

    /** hybdev gives each rank thread its index in the JVM as the first argument, not its rank. */
    private static boolean isHybdev(final String[] args)
    {
        return args.length > 2 && DeviceName.HYBDEV.text().equals(args[2]);
    }

    /** COMM_WORLD's rank once MPI.Init has run, else -1. */
    private static int worldRank()
    {
        try
        {
            return mpi.MPI.COMM_WORLD != null ? mpi.MPI.COMM_WORLD.Rank() : -1;
        }
        catch (final RuntimeException e)
        {
            return -1;
        }
    }

    /** MPJ Express's rank once MPI.Init has run; before, the first argument, which the starter makes the rank. */
    private static String rankOf(final String[] args)
    {
        try
        {
            if (mpi.MPI.COMM_WORLD != null)
            {
                return Integer.toString(mpi.MPI.COMM_WORLD.Rank());
            }
        }
        catch (final RuntimeException e)
        {
            // Finalized or half initialised: fall back on the argument.
        }
        return args.length > 0 && !args[0].isEmpty() && args[0].chars().allMatch(Character::isDigit) ? args[0] : "?";
    }


    private static Method findMain(final String className) throws ReflectiveOperationException
    {
        // This class's loader: a multicore rank's own, which MPJ Express gives each rank over the -cp entries.
        final Class<?> type = Class.forName(className, false, StarterRankMain.class.getClassLoader());
        final Method main = type.getMethod("main", String[].class);
        if (!Modifier.isStatic(main.getModifiers()))
        {
            throw new NoSuchMethodException(className + ".main(String[]) is not static: declare it " +
                "public static void main(String[] args)");
        }
        main.setAccessible(true);
        return main;
    }
}
