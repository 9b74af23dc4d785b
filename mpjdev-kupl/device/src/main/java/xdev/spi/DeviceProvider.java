package xdev.spi;

import xdev.Device;

/**
 * A device MPJ Express can find by name instead of through its hard-coded list: what
 * {@code mpjdev.javampjdev.MPJDev.init} looks up, through {@link java.util.ServiceLoader}, when the
 * project's agent ({@code mpjrun.agent.MpjAgent}) is installed. A device registers its provider in
 * {@code META-INF/services/xdev.spi.DeviceProvider}.
 *
 * <p>Implementations need a public no-argument constructor (ServiceLoader's rule) and must be cheap
 * to construct: every provider on the class path is instantiated to read its name.
 */
public interface DeviceProvider
{
    /** The name given to {@code -dev} and passed to each rank as its third argument, e.g. {@code "shm"}. */
    String name();

    /** A new, not yet initialised device; MPJ Express calls its {@code init(args)} next. */
    Device create();
}
