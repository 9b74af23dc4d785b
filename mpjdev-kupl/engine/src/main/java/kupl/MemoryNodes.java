package kupl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the machine offers beyond ordinary pages: huge pages ({@code /proc/meminfo}) and
 * on-package high-bandwidth memory, which Linux shows as NUMA nodes that have memory but no
 * CPUs ({@code /sys/devices/system/node}).
 */
final class MemoryNodes
{
    static final Path SYSFS_NODES = Path.of("/sys/devices/system/node");

    private MemoryNodes()
    {
    }

    /** Ids of the NUMA nodes under {@code nodesDir} that have memory and no CPU. */
    static List<Integer> memoryOnlyNodes(final Path nodesDir)
    {
        final List<Integer> nodes = new ArrayList<>();
        try (Stream<Path> entries = Files.list(nodesDir))
        {
            for (final Path node : entries.filter(p -> p.getFileName().toString().matches("node\\d+")).sorted().toList())
            {
                final String cpus = Files.readString(node.resolve("cpulist")).trim();
                final long memoryKb = memTotalKb(node.resolve("meminfo"));
                if (cpus.isEmpty() && memoryKb > 0)
                {
                    nodes.add(Integer.parseInt(node.getFileName().toString().substring(4)));
                }
            }
        }
        catch (final IOException e)
        {
            return List.of();
        }
        return nodes;
    }

    /** A one-line description of the nodes, for error messages ("node0: cpus 0-1"). */
    static String describe(final Path nodesDir)
    {
        final StringBuilder text = new StringBuilder();
        try (Stream<Path> entries = Files.list(nodesDir))
        {
            for (final Path node : entries.filter(p -> p.getFileName().toString().matches("node\\d+")).sorted().toList())
            {
                text.append(text.isEmpty() ? "" : ", ").append(node.getFileName()).append(": cpus ")
                    .append(Files.readString(node.resolve("cpulist")).trim());
            }
        }
        catch (final IOException e)
        {
            return "no NUMA information under " + nodesDir;
        }
        return text.toString();
    }

    /** {@code Hugepagesize} of {@code /proc/meminfo} in bytes (2 MiB on most x86-64 and arm64 machines). */
    static long hugePageBytes()
    {
        final long kb = meminfoKb(Path.of("/proc/meminfo"), "Hugepagesize:");
        return kb > 0 ? kb * 1024 : 2L << 20;
    }

    /** {@code HugePages_Free} of {@code /proc/meminfo}. */
    static long hugePagesFree()
    {
        return meminfoKb(Path.of("/proc/meminfo"), "HugePages_Free:");
    }

    private static long memTotalKb(final Path nodeMeminfo) throws IOException
    {
        for (final String line : Files.readAllLines(nodeMeminfo))
        {
            final int at = line.indexOf("MemTotal:");
            if (at >= 0)
            {
                return Long.parseLong(line.substring(at + 9).trim().split("\\s+")[0]);
            }
        }
        return 0;
    }

    private static long meminfoKb(final Path meminfo, final String key)
    {
        try
        {
            for (final String line : Files.readAllLines(meminfo))
            {
                if (line.startsWith(key))
                {
                    return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]);
                }
            }
        }
        catch (final IOException | NumberFormatException e)
        {
            return -1;
        }
        return -1;
    }
}
