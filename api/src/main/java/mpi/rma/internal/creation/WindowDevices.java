package mpi.rma.internal.creation;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;

/**
 * The MPJ Express devices on which no window is made: each creation call asks {@link #refuse} first, before
 * anything collective, so every process of the job (all on the same device) fails alike, and none waits.
 *
 * <p><b>hybdev.</b> MPJ Express 0.44's {@code xdev.hybdev.HYBDevice} serves each {@code MPI.ANY_SOURCE} receive
 * with a new thread that polls both of its sub-devices and sleeps 2 s between polls
 * ({@code HYBDevice.WildcardMessageManager}). Every window's target agent receives its requests from any
 * origin, so each fence, lock or flush waits about 2 s there: 2017 ms a fence with one put per rank against
 * 4.3 ms on niodev (2 ranks, two loopback names, this project's machines), the ranks idle meanwhile.
 * Shared windows would not need that agent, but a program that uses one flavour usually uses others too: one
 * rule for every flavour, given at the first window.
 */
final class WindowDevices
{
    /** MPJ Express's name of its hybrid device, as {@code -dev} takes it and {@code mpjdev.MPJDev} keeps it. */
    static final String HYBDEV = "hybdev";
    /** The class of hybdev's device object, for a process whose device was set up without {@code MPJDev.init}. */
    private static final String HYBDEV_CLASS = "xdev.hybdev.HYBDevice";

    private WindowDevices()
    {
    }

    /**
     * Throws if windows cannot run on this process's MPJ Express device.
     *
     * @param call the creation call, e.g. {@code Win.create}, which the message starts with.
     * @throws RmaException ERR_UNSUPPORTED_OPERATION on hybdev, naming the devices to run on instead.
     */
    static void refuse(final String call)
    {
        if (onHybdev())
        {
            throw new RmaException(ErrorClass.ERR_UNSUPPORTED_OPERATION, call + ": windows are not supported on " +
                "MPJ Express's -dev " + HYBDEV + ", whose MPI.ANY_SOURCE receives (on which a window's target " +
                "agent waits) sleep 2 s between polls, so every fence, lock or flush would take seconds; run the " +
                "job with -dev niodev (TCP between all ranks) or -dev shm (shared memory within each node, niodev " +
                "between nodes), e.g. bin/mpjrun -np 4 -dev niodev -machinesfile machines ...");
        }
    }

    /** Whether this process runs MPJ Express's hybdev, by the device name {@code MPI.Init} was given or its class. */
    static boolean onHybdev()
    {
        if (HYBDEV.equals(mpjdev.MPJDev.deviceName))
        {
            return true;
        }
        final xdev.Device device = mpjdev.javampjdev.MPJDev.dev;
        return device != null && HYBDEV_CLASS.equals(device.getClass().getName());
    }
}
