package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A rank's staging area for the bytes of large (rendezvous) messages, in its segment after its
 * queue ({@link SegmentDescriptor}): a ring of {@link #ringBytes()} that one sender at a time,
 * the one the owner granted the area to, fills piece after piece while the owner copies the
 * pieces out ({@link StagedTransfers}).
 *
 * <pre>
 *   0              128            256                                      256 + ringBytes
 *   +--------------+--------------+----------------------------------------+
 *   | filled       | drained      | ring: byte p of the stream at p % ring |
 *   | (the sender) | (the owner)  |                                        |
 *   +--------------+--------------+----------------------------------------+
 * </pre>
 *
 * {@code filled} counts the bytes written into the ring since the job began, {@code drained}
 * those the owner has copied out; both only grow, each on its own pair of cache lines. The sender
 * may write while {@code filled - drained < ringBytes}, the owner may read what lies below
 * {@code filled}. The owner grants the area only when {@code filled == drained}, so a new sender
 * starts where the last one ended and neither side needs to be told where that is. Nothing is
 * zeroed: a byte is read only after it was written, and a message's length says where it ends.
 *
 * <p>The ring is as large as the job's size allows ({@link #ringBytesFor}): with both ranks on
 * a core of their own they work a piece apart and the bytes stay in cache; when one of them is
 * descheduled the other can still write (or read) a whole ring before it waits for it.
 */
final class RendezvousRing
{
    /** Smallest ring: two pieces, so that the sender fills one while the owner empties the other. */
    static final int MIN_RING_BYTES = 2 * StagedTransfers.PIECE_BYTES;
    /** Largest ring: 4 MiB, a 1 MiB message in one go four times over, within the L3 cache. */
    static final int MAX_RING_BYTES = 4 << 20;
    /** The rings of a job together take about this much: 16 MiB, whatever its size. */
    static final long JOB_RING_BYTES = 16L << 20;
    static final long FILLED_OFFSET = 0;
    static final long DRAINED_OFFSET = QueueDescriptor.WORD_PAD_BYTES;
    static final long RING_OFFSET = 2L * QueueDescriptor.WORD_PAD_BYTES;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment memory;
    private final int ringBytes;
    private final int mask;

    /**
     * @param memory    {@link #bytesFor}{@code (ringBytes)} bytes of 8-byte-aligned shared memory, zero at first.
     * @param ringBytes a power of two from {@link #MIN_RING_BYTES} to {@link #MAX_RING_BYTES}.
     * @throws IllegalArgumentException naming the values, if either does not fit.
     */
    RendezvousRing(final MemorySegment memory, final int ringBytes)
    {
        checkRingBytes(ringBytes);
        if (memory.byteSize() < bytesFor(ringBytes) || (memory.address() & 7) != 0)
        {
            throw new IllegalArgumentException("a staging area of ringBytes=" + ringBytes + " needs " +
                bytesFor(ringBytes) + " bytes at an 8-byte boundary, not " + memory.byteSize() + " bytes at 0x" +
                Long.toHexString(memory.address()));
        }
        this.memory = memory;
        this.ringBytes = ringBytes;
        this.mask = ringBytes - 1;
    }

    /**
     * The ring of each rank of a job of {@code ranks}: {@link #JOB_RING_BYTES} shared out, rounded
     * down to a power of two, within {@link #MIN_RING_BYTES} and {@link #MAX_RING_BYTES}.
     */
    static int ringBytesFor(final int ranks)
    {
        QueueDescriptor.checkProducers(ranks);
        final long share = Long.highestOneBit(JOB_RING_BYTES / ranks);
        return (int)Math.max(MIN_RING_BYTES, Math.min(MAX_RING_BYTES, share));
    }

    /** Bytes of a staging area whose ring is {@code ringBytes}. */
    static long bytesFor(final int ringBytes)
    {
        return RING_OFFSET + ringBytes;
    }

    private static void checkRingBytes(final int ringBytes)
    {
        if (ringBytes < MIN_RING_BYTES || ringBytes > MAX_RING_BYTES || Integer.bitCount(ringBytes) != 1)
        {
            throw new IllegalArgumentException("ringBytes=" + ringBytes + " must be a power of two from " +
                MIN_RING_BYTES + " to " + MAX_RING_BYTES);
        }
    }

    MemorySegment memory()
    {
        return memory;
    }

    int ringBytes()
    {
        return ringBytes;
    }

    /** Offset in {@link #memory()} of byte {@code position} of the stream. */
    long offset(final long position)
    {
        return RING_OFFSET + (position & mask);
    }

    /** Bytes from {@code position} to the end of the ring, where a copy must stop and start again at its beginning. */
    int toEnd(final long position)
    {
        return ringBytes - (int)(position & mask);
    }

    /** Bytes written so far; pairs with {@link #releaseFilled}. */
    long filledAcquire()
    {
        return (long)LONG.getAcquire(memory, FILLED_OFFSET);
    }

    /** Publishes the bytes written so far, with them (plain stores of the copies). */
    void releaseFilled(final long bytes)
    {
        LONG.setRelease(memory, FILLED_OFFSET, bytes);
    }

    /** Bytes the owner has copied out so far; pairs with {@link #releaseDrained}. */
    long drainedAcquire()
    {
        return (long)LONG.getAcquire(memory, DRAINED_OFFSET);
    }

    /** Publishes the bytes copied out so far: their room may be written again. */
    void releaseDrained(final long bytes)
    {
        LONG.setRelease(memory, DRAINED_OFFSET, bytes);
    }
}
