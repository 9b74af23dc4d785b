package mpjrun.agent;

import mpjdev.javampjdev.MPJDev;

/** Initialises MPJ Express's device layer for the device named by {@code args[0]} and prints which device it chose. */
public final class DeviceLookupProbe
{
    static final String CHOSEN = "device chosen: ";

    private DeviceLookupProbe()
    {
    }

    public static void main(final String[] args)
    {
        // What MPI.Init passes on: {rank, conf, device}.
        System.out.println(CHOSEN + MPJDev.init(new String[] {"0", "1", args[0]}).getClass().getName());
    }
}
