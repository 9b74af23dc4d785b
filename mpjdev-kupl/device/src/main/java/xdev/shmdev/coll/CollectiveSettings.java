package xdev.shmdev.coll;

import mpjdev.javampjdev.MPJDev;
import xdev.shmdev.ClusterShmDevice;
import xdev.shmdev.ShmDevice;

/**
 * The settings of the shared-memory collectives ({@value ShmCollectives#ENABLED_PROPERTY},
 * {@value ShmCollectives#SLOT_BYTES_PROPERTY}), read from system properties once, at the first collective,
 * so that a wrong value fails there with a message naming the property.
 */
final class CollectiveSettings
{
    private static Boolean enabled;
    private static long slotBytes;

    private CollectiveSettings()
    {
    }

    /** Whether this JVM is a rank of the shm device with the shared-memory path on; read at the first call. */
    static synchronized boolean isEnabled()
    {
        if (enabled == null)
        {
            final String setting = System.getProperty(ShmCollectives.ENABLED_PROPERTY, "on");
            if (!setting.equals("on") && !setting.equals("off"))
            {
                throw new IllegalArgumentException(ShmCollectives.ENABLED_PROPERTY + "=" + setting +
                    ": give on or off");
            }
            slotBytes = Long.getLong(ShmCollectives.SLOT_BYTES_PROPERTY, ShmCollectives.DEFAULT_SLOT_BYTES);
            if (slotBytes < 64 || slotBytes > (1L << 30) || slotBytes % 8 != 0)
            {
                throw new IllegalArgumentException(ShmCollectives.SLOT_BYTES_PROPERTY + "=" + slotBytes +
                    ": give a multiple of 8 bytes from 64 to 1073741824");
            }
            enabled = setting.equals("on") &&
                (MPJDev.dev instanceof ShmDevice || MPJDev.dev instanceof ClusterShmDevice);
        }
        return enabled;
    }

    /** Bytes of one staging slot; read with the other setting by {@link #isEnabled()}, which comes first. */
    static synchronized long slotBytes()
    {
        return slotBytes;
    }
}
