package bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;

import bench.harness.ReportOptions;

/**
 * When and where a benchmark ran, and how it was started, for the head of its report: on a shared machine
 * the load average at the start and at the end says whether the figures beside it were measured on idle
 * cores.
 *
 * @param date        when the run started.
 * @param machine     cores, CPU model ({@code /proc/cpuinfo}) and operating system.
 * @param jdk         the JVM the benchmark itself ran on.
 * @param command     the command line that started it, e.g. {@code bin/bench device --report docs/benchmarks}.
 * @param revision    the source tree's revision ({@code git describe --always --dirty}), or empty if unknown.
 * @param loadAtStart the load average over 1, 5 and 15 minutes ({@code /proc/loadavg}) at the start.
 * @param loadAtEnd   the same at the end, or null while the run goes on.
 * @param runTime     from start to end, or null while the run goes on.
 */
public record RunStamp(ZonedDateTime date, String machine, String jdk, String command, String revision,
    String loadAtStart, String loadAtEnd, Duration runTime)
{
    /** Set by {@code bin/bench}: the command line as the user typed it. */
    public static final String COMMAND_VARIABLE = ReportOptions.COMMAND_VARIABLE;
    /** Set by {@code bin/bench}: the source tree's {@code git describe --always --dirty}. */
    public static final String REVISION_VARIABLE = "BENCH_REVISION";

    public RunStamp
    {
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(jdk, "jdk");
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(loadAtStart, "loadAtStart");
    }

    /** This machine, now, for a run started by {@code command}. */
    public static RunStamp start(final String command)
    {
        final String revision = System.getenv(REVISION_VARIABLE);
        return new RunStamp(ZonedDateTime.now().truncatedTo(ChronoUnit.SECONDS), thisMachine(), thisJdk(), command,
            revision == null ? "" : revision, loadAverage(), null, null);
    }

    /** The same stamp with the load average and the run time at its end. */
    public RunStamp finish()
    {
        return new RunStamp(date, machine, jdk, command, revision, loadAtStart, loadAverage(),
            Duration.between(date, ZonedDateTime.now()));
    }

    public boolean isFinished()
    {
        return loadAtEnd != null;
    }

    /** The date as the page prints it, ISO 8601 with the offset. */
    public String dateText()
    {
        return date.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    /** The run time in seconds, one decimal. */
    public String runTimeText()
    {
        return runTime == null ? "running" : String.format(Locale.ROOT, "%.1f s", runTime.toMillis() / 1e3);
    }

    /** The load average over 1, 5 and 15 minutes, or why it is unknown. */
    public static String loadAverage()
    {
        try
        {
            final String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        }
        catch (final IOException | ArrayIndexOutOfBoundsException e)
        {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /** Cores, CPU model and operating system, e.g. {@code "2 cores, Intel(R) Xeon(R) ..., Linux 6.1 amd64"}. */
    static String thisMachine()
    {
        String cpuinfo;
        try
        {
            cpuinfo = Files.readString(Path.of("/proc/cpuinfo"));
        }
        catch (final IOException e)
        {
            cpuinfo = "";
        }
        return Runtime.getRuntime().availableProcessors() + " cores, " + cpuModel(cpuinfo) + ", " +
            System.getProperty("os.name") + " " + System.getProperty("os.version") + " " +
            System.getProperty("os.arch");
    }

    /**
     * The CPU model that {@code cpuinfo} (the text of {@code /proc/cpuinfo}) names: x86's {@code model name};
     * on ARM, which has none, the implementer and part (0x48 0xd01 is HiSilicon's Kunpeng 920).
     */
    static String cpuModel(final String cpuinfo)
    {
        final String model = field(cpuinfo, "model name");
        if (model != null)
        {
            return model.replaceAll("\\s+", " ");
        }
        final String implementer = field(cpuinfo, "CPU implementer");
        final String part = field(cpuinfo, "CPU part");
        if (implementer != null && part != null)
        {
            final String known = "0x48".equals(implementer) && "0xd01".equals(part) ? "HiSilicon Kunpeng 920 " : "";
            return known + "(CPU implementer " + implementer + ", part " + part + ")";
        }
        return "unknown CPU model";
    }

    private static String field(final String cpuinfo, final String name)
    {
        for (final String line : cpuinfo.split("\n"))
        {
            final int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equals(name))
            {
                final String value = line.substring(colon + 1).strip();
                return value.isEmpty() ? null : value;
            }
        }
        return null;
    }

    private static String thisJdk()
    {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " (" +
            System.getProperty("java.vendor") + ")";
    }
}
