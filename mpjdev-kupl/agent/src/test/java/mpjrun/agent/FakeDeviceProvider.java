package mpjrun.agent;

import xdev.Device;
import xdev.spi.DeviceProvider;

/** Registers {@link FakeDevice} as {@value #NAME} (test resources' META-INF/services). */
public final class FakeDeviceProvider implements DeviceProvider
{
    static final String NAME = "fakedev";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Device create()
    {
        return new FakeDevice();
    }
}
