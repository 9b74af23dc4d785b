package bench.device;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import bench.harness.Stat;
import bench.report.Table;
import bench.report.Text;

/**
 * The device benchmark's floor for its bandwidth rows, measured in the same run: {@link RingModel}'s two
 * copies through a ring by two bound threads, with nothing of the device around them, and one copy by one
 * thread. Where shm stays below Open MPI's C library, it says how much of the gap is the two copies every
 * {@code byte[]} message makes (a Java array cannot be read by another process, so no single copy) and how much
 * is the device's own (records, clear-to-send, hand-offs between processes).
 */
final class LargeMessageFloor
{
    private static final String BANDWIDTH = "bandwidth:";

    private final ModelRun run;

    private LargeMessageFloor(final ModelRun run)
    {
        this.run = run;
    }

    /** Whether any of {@code rows} is a bandwidth row, which this floor is for. */
    static boolean appliesTo(final List<DeviceRow> rows)
    {
        return rows.stream().anyMatch(LargeMessageFloor::isBandwidth);
    }

    /**
     * Runs {@link RingModel} for the message sizes of {@code rows}' bandwidth rows in a JVM of its own, with
     * {@code loop} (warm-up ms, repetitions, repetition target ns) as the device's ranks get it; a failure
     * leaves a note and empty cells.
     */
    static LargeMessageFloor measure(final List<DeviceRow> rows, final List<String> loop, final List<String> notes)
    {
        final List<String> arguments = new ArrayList<>(loop);
        rows.stream().filter(LargeMessageFloor::isBandwidth)
            .forEach(row -> arguments.add(Integer.toString(bytes(row))));
        return new LargeMessageFloor(ModelRun.of(RingModel.class, arguments, notes));
    }

    /**
     * The table of the floor: per bandwidth row, shm's figure (from {@code shmStats}), the ring model's, one
     * copy's and Open MPI C's (from {@code cStats}), and the ratios between them.
     */
    Table table(final List<DeviceRow> rows, final Map<DeviceRow, Stat> shmStats, final Map<DeviceRow, Stat> cStats)
    {
        final Table table = new Table("bandwidth, 2 processes", "shm", "ring model: 2 bound threads, 2 copies",
            "1 copy, 1 thread", "Open MPI C", "shm / ring model", "ring model / 1 copy");
        for (final DeviceRow row : rows.stream().filter(LargeMessageFloor::isBandwidth).toList())
        {
            final Stat shm = shmStats.get(row);
            final Stat ring = run.stat("ring:" + bytes(row));
            final Stat copy = run.stat("copy:" + bytes(row));
            final Stat inC = cStats.get(row);
            // Not the main table's label, which names the row there once.
            table.row(bytesLabel(row) + ", " + row.unit(), row.figure(shm), row.figure(ring), row.figure(copy),
                row.figure(inC), row.ratio(shm, ring).textIfMeasured(), row.ratio(ring, copy).textIfMeasured());
        }
        return table;
    }

    /** What the table's columns are, for under it. */
    static Text explanation()
    {
        return new Text("Floor of the bandwidth rows, measured right after shm's job of them: " +
            "bench.device.RingModel, " +
            "two threads of one JVM bound to CPUs of their own as the device binds its ranks, moving byte[] " +
            "messages through a 4 MiB native ring " +
            "in 64 KiB pieces (the sender copies a piece in and releases a filled count, the receiver copies it " +
            "out and releases a drained count): the two copies a byte[] message makes through the device's " +
            "staging ring, with no queue, record, clear-to-send, matching or MPJ Express around them. 1 copy: " +
            "System.arraycopy of the message by one thread, what a single copy between the two arrays could " +
            "reach at best; another process cannot read a Java array, which the garbage collector may move, so " +
            "the device cannot make Open MPI's single copy (CMA) for them. Ratios compare times: shm / ring " +
            "model is what the device costs beyond its copies; ring model / 1 copy what it costs to hand every " +
            "piece to another core as freshly written cache lines and copy it a second time there, which depends " +
            "on where the host places this machine's CPUs (whether they share a cache) and changes between runs.");
    }

    private static boolean isBandwidth(final DeviceRow row)
    {
        return row.part().startsWith(BANDWIDTH);
    }

    /** "1 MiB messages" for the row "bandwidth, 1 MiB messages". */
    private static String bytesLabel(final DeviceRow row)
    {
        return row.label().substring(row.label().indexOf(", ") + 2);
    }

    private static int bytes(final DeviceRow row)
    {
        return Integer.parseInt(row.part().substring(BANDWIDTH.length()));
    }
}
