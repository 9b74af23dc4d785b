package mpjrun;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

import kupl.PeerDeathException;
import kupl.bootstrap.JobRefusedException;
import xdev.shmdev.ShmDevice;

/**
 * The main class of every rank JVM that {@link ShmJob} starts: installs the {@code shm} device,
 * then runs the program's {@code main} with {@code {rank, conf, "shm", appArgs...}}, as
 * {@code MPI.Init} expects.
 *
 * <p>MPJ Express 0.44's {@code mpjdev.javampjdev.MPJDev.init} picks a device from a hard-coded
 * list of names, but only while its public static field {@code dev} is null: a device placed
 * there beforehand is used as it is, and {@code init(args)} is called on it.
 *
 * <p>Arguments: {@code <main class> <rank> <conf> shm <app args...>}. With
 * {@code -D}{@value #LAUNCHER_PID_PROPERTY}{@code =<pid>} the rank ends itself when that
 * process (the launcher) ends, so that no rank outlives a launcher killed with {@code kill -9}.
 *
 * <p><b>Exit status.</b> A program that returns from {@code main} leaves the status to the JVM (0,
 * or the program's own {@code System.exit}); one that throws ends the rank with {@value #FAILED},
 * or with {@value #AFTER_ANOTHER_RANK} when what it threw was caused by another rank: that rank died
 * ({@link PeerDeathException} in the cause chain), or the job's start was given up because of it
 * ({@link JobRefusedException}). The exit status is the one record of a rank's end that outlasts
 * everything: a launcher that was stopped (SIGSTOP) while ranks died reads all their exits at once,
 * in no particular order, and tells by it which rank failed first.
 */
public final class ShmRankMain
{
    /** System property naming the launcher's pid. */
    public static final String LAUNCHER_PID_PROPERTY = "kupl.shm.launcher";
    /** Exit status of a rank whose program threw, or whose launcher went away. */
    static final int FAILED = 1;
    /**
     * Exit status of a rank whose program threw because of another rank (see the class comment). 75 is
     * {@code EX_TEMPFAIL} of {@code sysexits.h}, a status programs seldom choose for themselves.
     */
    static final int AFTER_ANOTHER_RANK = 75;

    private ShmRankMain()
    {
    }

    public static void main(final String[] args) throws ReflectiveOperationException
    {
        if (args.length < 4 || !ShmDevice.NAME.equals(args[3]))
        {
            System.err.println("usage: java mpjrun.ShmRankMain <main class> <rank> <conf> shm [args...] " +
                "(started by mpjrun.ShmJob), got " + Arrays.toString(args));
            System.exit(2);
        }
        watchLauncher();
        final Method main = findMain(args[0]);
        mpjdev.javampjdev.MPJDev.dev = new ShmDevice();
        try
        {
            main.invoke(null, (Object)Arrays.copyOfRange(args, 1, args.length));
        }
        catch (final InvocationTargetException e)
        {
            // End this rank at once, whatever other threads it has: the launcher then stops the others.
            e.getCause().printStackTrace();
            System.exit(causedByAnotherRank(e.getCause()) ? AFTER_ANOTHER_RANK : FAILED);
        }
    }

    /** Whether {@code failure} was caused by another rank: its death, or its failure to join the job. */
    static boolean causedByAnotherRank(final Throwable failure)
    {
        return PeerDeathException.in(failure).isPresent() || JobRefusedException.in(failure);
    }

    private static Method findMain(final String className) throws ReflectiveOperationException
    {
        final Class<?> type;
        try
        {
            type = Class.forName(className, false, ShmRankMain.class.getClassLoader());
        }
        catch (final ClassNotFoundException e)
        {
            System.err.println("mpjrun: class " + className + " is not on the class path " +
                System.getProperty("java.class.path") + " (add its directory or jar with -cp)");
            System.exit(FAILED);
            throw e;
        }
        final Method main = type.getMethod("main", String[].class);
        if (!Modifier.isStatic(main.getModifiers()))
        {
            throw new NoSuchMethodException(className + ".main(String[]) is not static: declare it " +
                "public static void main(String[] args)");
        }
        main.setAccessible(true);
        return main;
    }

    private static void watchLauncher()
    {
        final String pid = System.getProperty(LAUNCHER_PID_PROPERTY);
        if (pid != null)
        {
            ProcessHandle.of(Long.parseLong(pid)).ifPresentOrElse(
                launcher -> launcher.onExit().thenRun(() -> Runtime.getRuntime().halt(FAILED)),
                () -> Runtime.getRuntime().halt(FAILED));
        }
    }
}
