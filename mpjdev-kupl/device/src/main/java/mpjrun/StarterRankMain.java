package mpjrun;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

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
 *     thread of one JVM on this node), a rank whose {@code main} returns appends
 *     {@code R} to the file, and a JVM that ends through {@code System.exit} appends
 *     {@value #EXIT_LINE}: ranks missing from a file without that line were killed with
 *     their JVM ({@code kill -9}, a crash).</li>
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
    /** The line a JVM ended by {@code System.exit} appends to the report. */
    static final String EXIT_LINE = "exit";
    /** The start of the line a failed rank prints; {@link StarterVerdict} looks for it. */
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
        final Path report = reportFile();
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
            append(report, rankOf(args));
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

    /** The report file, if one was asked for; registers the {@value #EXIT_LINE} hook once per JVM. */
    private static Path reportFile()
    {
        final String file = System.getProperty(REPORT_PROPERTY);
        if (file == null || file.isBlank())
        {
            return null;
        }
        final Path report = Path.of(file);
        // Every multicore rank has its own class loader, so a static flag is per rank: the JVM-wide one is a property.
        synchronized (System.getProperties())
        {
            if (System.getProperty(REPORT_PROPERTY + ".hook") == null)
            {
                System.setProperty(REPORT_PROPERTY + ".hook", "set");
                // Shutdown hooks run on System.exit and on SIGTERM, never on SIGKILL or a crash.
                Runtime.getRuntime().addShutdownHook(new Thread(() -> append(report, EXIT_LINE), "mpjrun-report"));
            }
        }
        return report;
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

    private static void append(final Path report, final String line)
    {
        try
        {
            Files.writeString(report, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND,
                StandardOpenOption.CREATE);
        }
        catch (final IOException e)
        {
            System.err.println("mpjrun: cannot write the rank report " + report + ": " + e.getMessage());
        }
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
