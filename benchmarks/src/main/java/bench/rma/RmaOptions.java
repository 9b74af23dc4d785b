package bench.rma;

import java.util.ArrayList;
import java.util.List;

import bench.harness.CommandLine;
import bench.harness.ReportOptions;
import mpjrun.MpjDevice;

/** {@link RmaBenchmark}'s command line: {@code --quick}, {@code --devices multicore,niodev,shm}. */
final class RmaOptions
{
    static final String USAGE = "usage: bin/bench rma [--quick] [--devices multicore,niodev,shm] " +
        ReportOptions.USAGE;

    boolean quick;
    List<MpjDevice> devices = List.of(MpjDevice.MULTICORE, MpjDevice.NIODEV, MpjDevice.SHM);
    ReportOptions report;

    private RmaOptions()
    {
    }

    /** @throws bench.harness.UsageException if an argument is not understood. */
    static RmaOptions parse(final String[] args)
    {
        final RmaOptions options = new RmaOptions();
        options.report = new CommandLine(USAGE)
            .flag("--quick", () -> options.quick = true)
            .option("--devices", "a value, e.g. multicore,niodev", names ->
            {
                final List<MpjDevice> devices = new ArrayList<>();
                for (final String name : names.split(","))
                {
                    devices.add(device(name));
                }
                options.devices = List.copyOf(devices);
            })
            .parse(args, RmaBenchmark.class);
        return options;
    }

    private static MpjDevice device(final String name)
    {
        for (final MpjDevice device : MpjDevice.values())
        {
            if (device.name().equalsIgnoreCase(name.trim()))
            {
                return device;
            }
        }
        throw new IllegalArgumentException("unknown device " + name + ": give multicore, niodev or shm");
    }
}
