package xdev.shmdev;

import xdev.Device;
import xdev.spi.DeviceProvider;

/** Provides the {@link ShmDevice} under the name {@value ShmDevice#NAME}. */
public final class ShmDeviceProvider implements DeviceProvider
{
    @Override
    public String name()
    {
        return ShmDevice.NAME;
    }

    @Override
    public Device create()
    {
        return new ShmDevice();
    }
}
