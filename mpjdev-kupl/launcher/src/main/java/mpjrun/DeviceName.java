package mpjrun;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import xdev.shmdev.ShmDevice;

/**
 * Every device name this project deals in, each spelled here once: ours, and MPJ Express 0.44's,
 * with where MPJ Express accepts it. Its starter ({@code runtime.starter.MPJRun}) takes one list of
 * {@code -dev} names and the ranks' {@code mpjdev.javampjdev.MPJDev.init} another: the starter turns
 * {@code multicore} into threads of one JVM whose ranks use {@code smpdev}.
 */
public enum DeviceName
{
    /** Ours: one JVM per rank on this node, point-to-point over shared memory ({@code xdev.shmdev}). */
    SHM(ShmDevice.NAME, false, false),
    /** MPJ Express's multicore mode: one JVM, one thread per rank. */
    MULTICORE("multicore", true, false),
    /** The device of multicore ranks. */
    SMPDEV("smpdev", false, true),
    /** MPJ Express's cluster mode: one JVM per rank over TCP, started by daemons. */
    NIODEV("niodev", true, true),
    /** MPJ Express's hybrid mode: threads within a node, niodev between nodes. */
    HYBDEV("hybdev", true, true),
    /** MPJ Express over Myrinet (native). */
    MXDEV("mxdev", true, true);

    private final String text;
    private final boolean starterAccepts;
    private final boolean mpjDevAccepts;

    DeviceName(final String text, final boolean starterAccepts, final boolean mpjDevAccepts)
    {
        this.text = text;
        this.starterAccepts = starterAccepts;
        this.mpjDevAccepts = mpjDevAccepts;
    }

    /** The name as given to {@code -dev}. */
    public String text()
    {
        return text;
    }

    /** Whether MPJ Express's starter takes it as {@code -dev} (and so runs the job itself). */
    public boolean starterAccepts()
    {
        return starterAccepts;
    }

    /** Whether MPJ Express's {@code MPJDev.init} knows it itself (so the agent leaves it alone). */
    public boolean mpjDevAccepts()
    {
        return mpjDevAccepts;
    }

    /** The {@code -dev} names MPJ Express's starter accepts, in this order. */
    public static List<String> starterDevices()
    {
        return texts(DeviceName::starterAccepts);
    }

    /** The device names MPJ Express's {@code MPJDev.init} knows, in this order. */
    public static List<String> mpjDevDevices()
    {
        return texts(DeviceName::mpjDevAccepts);
    }

    private static List<String> texts(final Predicate<DeviceName> which)
    {
        return Arrays.stream(values()).filter(which).map(DeviceName::text).toList();
    }
}
