package bench.device;

import java.util.List;
import java.util.Map;

import bench.harness.Stat;
import bench.report.Table;
import bench.report.Text;

/**
 * The device benchmark's floor for its 8-byte ping-pong rows, measured in the same run: {@link LineModel}'s
 * half round trips between two bound threads, of one cache line with nothing of the device around it and of
 * the device's records with nothing else.
 * Where shm stays above its target against Open MPI's C library, it says how much of the time the machine's
 * hand-over of a line between cores takes (which C pays too) and how much is the software above it.
 */
final class ShortMessageFloor
{
    private static final List<String> PARTS = List.of("pingpong:8", "plain:8");

    private final ModelRun run;

    private ShortMessageFloor(final ModelRun run)
    {
        this.run = run;
    }

    /** Whether any of {@code rows} is an 8-byte ping-pong row, which this floor is for. */
    static boolean appliesTo(final List<DeviceRow> rows)
    {
        return rows.stream().anyMatch(ShortMessageFloor::isShortPingPong);
    }

    /**
     * Runs {@link LineModel} in a JVM of its own with {@code loop} (warm-up ms, repetitions, repetition target
     * ns) as the device's ranks get it; a failure leaves a note and empty cells.
     */
    static ShortMessageFloor measure(final List<String> loop, final List<String> notes)
    {
        return new ShortMessageFloor(ModelRun.of(LineModel.class, loop, notes));
    }

    /**
     * The table of the floor: per 8-byte ping-pong row, shm's figure (from {@code shmStats}), the models' and
     * Open MPI C's (from {@code cStats}), the ratios between them, and for a plain row how long the ranks' JIT
     * compilers compiled during each timed batch (from {@code compiling}).
     */
    Table table(final List<DeviceRow> rows, final Map<DeviceRow, Stat> shmStats, final Map<DeviceRow, Stat> cStats,
        final Map<DeviceRow, Stat> compiling)
    {
        final Table table = new Table("8-byte ping-pong, half round trip, 2 processes", "shm",
            "line model: 2 bound threads, one cache line each way", "record model: the device's records, nothing " +
            "else", "Open MPI C", "shm / record model", "record model / line model", "Open MPI C / line model",
            "JIT compiling per timed batch, both ranks, ms");
        final Stat line = run.stat("line:8");
        final Stat records = run.stat("record:8");
        for (final DeviceRow row : rows.stream().filter(ShortMessageFloor::isShortPingPong).toList())
        {
            final Stat shm = shmStats.get(row);
            final Stat inC = cStats.get(row);
            // Not the main table's label, which names the row there once.
            table.row((row.isPlain() ? "plain (Send/Recv of byte[], warmed up as a program is)" :
                "bench.device.DeviceRank") + ", " + row.unit(), row.figure(shm), row.figure(line), row.figure(records),
                row.figure(inC), row.ratio(shm, records).textIfMeasured(), row.ratio(records, line).textIfMeasured(),
                row.ratio(inC, line).textIfMeasured(), !row.isPlain() ? "" :
                    compiling.get(row) == null ? "n/a" : compiling.get(row).format("%.0f"));
        }
        return table;
    }

    /** What the table's columns are, for under it. */
    static Text explanation()
    {
        return new Text("Floor of the 8-byte rows, measured right after shm's job of them: bench.device.LineModel, " +
            "two threads of one JVM bound to CPUs of their own as the device binds its ranks, taking turns to " +
            "publish a message number in a " +
            "cache line of their own (a release store, the other spinning on an acquire load): one line handed " +
            "from core to core each way, what a half round trip cannot go below on this machine, with no queue, " +
            "record header, request, matching or MPJ Express around it. Record model: the same turns through " +
            "inboxes of 56-byte records as the device's queue holds an 8-byte message (header, envelope, data; " +
            "written, published by a release store of the length, read and zeroed by the owner), what the " +
            "device's queue protocol costs by itself. Ratios compare times: shm / record model is what the " +
            "device's software and MPJ Express add to its queue, record model / line model what the records' " +
            "layout adds to the hand-over, Open MPI C / line model what Open MPI's C library adds to it. JIT " +
            "compiling: milliseconds the two rank JVMs' compilers spent during each of the plain ping-pong's " +
            "timed batches (HotSpot's compilation time); while they compile they take CPU from ranks that have " +
            "one CPU each and none to spare.");
    }

    private static boolean isShortPingPong(final DeviceRow row)
    {
        return PARTS.contains(row.part());
    }
}
