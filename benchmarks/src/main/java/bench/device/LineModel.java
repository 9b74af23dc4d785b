package bench.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import bench.harness.Samples;
import xdev.shmdev.ShmDevice;

/**
 * The floor of the shm device's 8-byte ping-pong, without the device: a half round trip that moves one cache
 * line from one core to the other and nothing else. Two threads bound as the device binds its ranks
 * ({@link BoundPair}) take turns: the first publishes a message number in its line with a release store and
 * spins until the second has published the same number in a line of its own, as the two ranks of a ping-pong
 * do with each message's record (but with no queue, record header, request, matching or MPJ Express around
 * it). The 8-byte message is the number itself.
 *
 * <p>Beside it, the same exchange through records laid out as the device lays out an 8-byte message: each
 * thread has a {@value #QUEUE_BYTES}-byte inbox of {@value #RECORD_BYTES}-byte records (header, envelope,
 * data), which the other fills in and publishes with a release store of the record's length, and which its
 * owner reads, zeroes for the next lap and passes. That is the device's queue protocol with nothing else: a
 * record may straddle two lines, and the sender writes lines its receiver zeroed a lap before.
 *
 * <p>Arguments: warm-up in ms, repetitions, repetition target in ns. Prints two {@link Samples} lines,
 * {@code line:8} and {@code record:8}, in ns per half round trip of each repetition.
 */
public final class LineModel
{
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    /** The first thread's line and the second's, each on a cache-line pair of its own. */
    private static final long PING = 0;
    private static final long PONG = 128;
    /** The device's per-rank queue, and its 8-byte message: an 8-byte header, a 40-byte envelope, the data. */
    static final int QUEUE_BYTES = ShmDevice.QUEUE_BYTES;
    static final int RECORD_BYTES = 8 + 40 + 8;
    private static final int RECORDS = QUEUE_BYTES / RECORD_BYTES;

    private final MemorySegment lines;
    /** The first thread's inbox, then the second's. */
    private final MemorySegment inboxes;
    /** The last message number used: each run counts on from it, so that no number is seen twice. */
    private long lastNumber;

    private LineModel(final Arena arena)
    {
        lines = arena.allocate(256, 128);
        inboxes = arena.allocate(2L * QUEUE_BYTES, 4096);
    }

    public static void main(final String[] args)
    {
        final long warmupNs = Long.parseLong(args[0]) * 1_000_000L;
        final int repetitions = Integer.parseInt(args[1]);
        final long targetNs = Long.parseLong(args[2]);
        try (Arena arena = Arena.ofShared())
        {
            final LineModel model = new LineModel(arena);
            print("line:8", BoundPair.measure(model::pingPong, warmupNs, repetitions, targetNs));
            print("record:8", BoundPair.measure(model::throughRecords, warmupNs, repetitions, targetNs));
        }
    }

    private static void print(final String metric, final BoundPair.Repetitions measured)
    {
        final double[] halfRoundTripNs = new double[measured.nanos().length];
        for (int r = 0; r < halfRoundTripNs.length; r++)
        {
            halfRoundTripNs[r] = (double)measured.nanos()[r] / (2 * measured.ops());
        }
        Samples.print(metric, 0, measured.ops(), halfRoundTripNs);
    }

    /** {@code ops} round trips; the ns the second thread took for them. */
    private long pingPong(final long ops)
    {
        final long first = lastNumber + 1;
        final long last = lastNumber + ops;
        lastNumber = last;
        return BoundPair.run(() ->
        {
            for (long number = first; number <= last; number++)
            {
                WORD.setRelease(lines, PING, number);
                while ((long)WORD.getAcquire(lines, PONG) != number)
                {
                    Thread.onSpinWait();
                }
            }
        }, () ->
        {
            for (long number = first; number <= last; number++)
            {
                while ((long)WORD.getAcquire(lines, PING) != number)
                {
                    Thread.onSpinWait();
                }
                WORD.setRelease(lines, PONG, number);
            }
        });
    }

    /** {@code ops} round trips through the two inboxes' records; the ns the second thread took for them. */
    private long throughRecords(final long ops)
    {
        final long first = lastNumber + 1;
        final long last = lastNumber + ops;
        lastNumber = last;
        final MemorySegment firstInbox = inboxes.asSlice(0, QUEUE_BYTES);
        final MemorySegment secondInbox = inboxes.asSlice(QUEUE_BYTES, QUEUE_BYTES);
        return BoundPair.run(() ->
        {
            for (long number = first; number <= last; number++)
            {
                write(secondInbox, number);
                read(firstInbox, number);
            }
        }, () ->
        {
            for (long number = first; number <= last; number++)
            {
                read(secondInbox, number);
                write(firstInbox, number);
            }
        });
    }

    /** Message {@code number}'s record in an inbox: the writer and the reader find it by the same number. */
    private static long record(final long number)
    {
        return number % RECORDS * RECORD_BYTES;
    }

    private static void write(final MemorySegment inbox, final long number)
    {
        final long at = record(number);
        for (long word = 8; word < RECORD_BYTES; word += 8)
        {
            inbox.set(ValueLayout.JAVA_LONG, at + word, number);
        }
        WORD.setRelease(inbox, at, (long)RECORD_BYTES);
    }

    private static void read(final MemorySegment inbox, final long number)
    {
        final long at = record(number);
        while ((long)WORD.getAcquire(inbox, at) == 0)
        {
            Thread.onSpinWait();
        }
        if (inbox.get(ValueLayout.JAVA_LONG, at + RECORD_BYTES - 8) != number)
        {
            throw new IllegalStateException("record " + number + " holds " +
                inbox.get(ValueLayout.JAVA_LONG, at + RECORD_BYTES - 8));
        }
        // Zeroed for the next lap, as the device's queue zeroes a read record; the length last, released.
        for (long word = 8; word < RECORD_BYTES; word += 8)
        {
            inbox.set(ValueLayout.JAVA_LONG, at + word, 0L);
        }
        WORD.setRelease(inbox, at, 0L);
    }
}
