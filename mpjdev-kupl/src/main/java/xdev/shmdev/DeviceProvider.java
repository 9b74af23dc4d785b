package xdev.shmdev;

import xdev.Device;

/**
 * A device that MPJ Express can be taught to find by name through {@link java.util.ServiceLoader}
 * (MPJ Express 0.44 itself knows only its hard-coded devices). Implementations are listed in
 * {@code META-INF/services/xdev.shmdev.DeviceProvider}.
 */
public interface DeviceProvider
{
    /** The name given to {@code -dev} and as {@code MPI.Init}'s third argument, e.g. {@code "shm"}. */
    String name();

    /** A new, uninitialised device ({@code MPJDev.init} calls its {@code init(args)}). */
    Device create();
}
