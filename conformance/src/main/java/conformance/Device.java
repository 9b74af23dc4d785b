package conformance;

/** The MPJ Express devices a conformance job can run on; all put the ranks on this node. */
public enum Device
{
    MULTICORE("multicore"), NIODEV("niodev"), SHM("shm");

    private final String label;

    Device(final String label)
    {
        this.label = label;
    }

    public String label()
    {
        return label;
    }

    public static Device of(final String label)
    {
        for (final Device device : values())
        {
            if (device.label.equals(label))
            {
                return device;
            }
        }
        throw new IllegalArgumentException("device=" + label + " is not one of multicore, niodev, shm");
    }
}
