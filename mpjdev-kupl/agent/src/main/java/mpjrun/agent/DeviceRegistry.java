package mpjrun.agent;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import mpjrun.DeviceName;
import xdev.spi.DeviceProvider;

/**
 * Finds a rank's device by name among the {@link DeviceProvider}s on the class path, for
 * {@code mpjdev.javampjdev.MPJDev.init(args)}: called at its start (see {@link MpjAgent}), it sets
 * the public static field {@code MPJDev.dev} when {@code args[2]} names a registered device, and
 * MPJ Express's own if-chain, guarded by {@code if (dev == null)}, then leaves it alone.
 */
public final class DeviceRegistry
{
    /** The devices MPJ Express 0.44's {@code MPJDev.init} knows itself: left to it. */
    private static final List<String> MPJ_EXPRESS_DEVICES = DeviceName.mpjDevDevices();

    private DeviceRegistry()
    {
    }

    /**
     * Sets {@code mpjDev.dev} to a new device named {@code args[2]} if one is registered and no
     * device is set yet.
     *
     * @param mpjDev the class {@code mpjdev.javampjdev.MPJDev} being initialised (one per class loader:
     *               in MPJ Express's multicore mode each rank has its own).
     * @throws IllegalArgumentException if the name is neither MPJ Express's nor registered, listing those that are.
     */
    public static void install(final Class<?> mpjDev, final String[] args)
    {
        if (args == null || args.length < 3 || MPJ_EXPRESS_DEVICES.contains(args[2]))
        {
            return; // MPJ Express's own usage error or device
        }
        final String name = args[2];
        // The lock MPJDev.init takes around its own choice: its rank threads may race here.
        synchronized (mpjDev)
        {
            final Field dev = deviceField(mpjDev);
            try
            {
                if (dev.get(null) != null)
                {
                    return;
                }
                final List<String> registered = new ArrayList<>();
                for (final DeviceProvider provider : ServiceLoader.load(DeviceProvider.class, loaderOf(mpjDev)))
                {
                    if (provider.name().equals(name))
                    {
                        dev.set(null, provider.create());
                        return;
                    }
                    registered.add(provider.name());
                }
                throw new IllegalArgumentException("device=" + name + " is neither one of MPJ Express's " +
                    MPJ_EXPRESS_DEVICES + " nor registered as a " + DeviceProvider.class.getName() + " service " +
                    registered + "; is its jar on the class path?");
            }
            catch (final IllegalAccessException e)
            {
                throw new IllegalStateException("cannot set " + mpjDev.getName() + ".dev: " + e.getMessage(), e);
            }
        }
    }

    private static Field deviceField(final Class<?> mpjDev)
    {
        try
        {
            return mpjDev.getField("dev");
        }
        catch (final NoSuchFieldException e)
        {
            throw new IllegalStateException(mpjDev.getName() + " has no public static field dev: not MPJ Express " +
                "0.44's MPJDev, which the agent was written for", e);
        }
    }

    private static ClassLoader loaderOf(final Class<?> type)
    {
        final ClassLoader loader = type.getClassLoader();
        return loader != null ? loader : ClassLoader.getSystemClassLoader();
    }
}
