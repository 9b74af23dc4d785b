package xdev.shmdev;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A rank's staging area for the bytes of large (rendezvous) messages, in its segment after its
 * queue ({@link SegmentDescriptor}): {@link #SLOTS} slots of {@link #SLOT_BYTES} that one sender
 * at a time, the one the owner granted the area to, fills chunk after chunk while the owner
 * copies them out ({@link StagedTransfers}).
 *
 * <pre>
 *   0              128            256                      256 + SLOT_BYTES         256 + 2 * SLOT_BYTES
 *   +--------------+--------------+------------------------+------------------------+
 *   | filled       | drained      | slot 0                 | slot 1                 |
 *   | (the sender) | (the owner)  | chunks 0, 2, 4, ...    | chunks 1, 3, 5, ...    |
 *   +--------------+--------------+------------------------+------------------------+
 * </pre>
 *
 * {@code filled} counts the chunks written into the area since the job began, {@code drained}
 * those the owner has copied out; both only grow, each on its own pair of cache lines, and chunk
 * {@code c} lies in slot {@code c % SLOTS}. The sender may write chunk {@code c} once
 * {@code c - drained < SLOTS}, the owner may read it once {@code c < filled}. The owner grants
 * the area only when {@code filled == drained}, so a new sender starts where the last one ended
 * and neither side needs to be told where that is. Nothing is zeroed: a slot is read only after
 * its chunk was written, and each chunk's length follows from the message's size.
 */
final class StagingArea
{
    /** Slots: two, so that the sender fills one while the owner empties the other. */
    static final int SLOTS = 2;
    /**
     * Bytes of a slot: 64 KiB, well inside a core's L2 cache, so that a chunk the sender has just
     * written is still cached when the owner copies it out, and large enough that the two
     * counter updates per chunk cost little beside its copy.
     */
    static final int SLOT_BYTES = ShmDevice.CHUNK_BYTES;
    static final long FILLED_OFFSET = 0;
    static final long DRAINED_OFFSET = QueueDescriptor.WORD_PAD_BYTES;
    static final long SLOTS_OFFSET = 2L * QueueDescriptor.WORD_PAD_BYTES;
    /** Bytes of a staging area. */
    static final long BYTES = SLOTS_OFFSET + (long)SLOTS * SLOT_BYTES;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment memory;

    /**
     * @param memory {@link #BYTES} bytes of 8-byte-aligned shared memory, zero at first.
     * @throws IllegalArgumentException if it is smaller or misaligned.
     */
    StagingArea(final MemorySegment memory)
    {
        if (memory.byteSize() < BYTES || (memory.address() & 7) != 0)
        {
            throw new IllegalArgumentException("a staging area needs " + BYTES + " bytes at an 8-byte boundary, not " +
                memory.byteSize() + " bytes at 0x" + Long.toHexString(memory.address()));
        }
        this.memory = memory;
    }

    MemorySegment memory()
    {
        return memory;
    }

    /** Offset in {@link #memory()} of the slot that holds chunk {@code chunk}. */
    static long slotOffset(final long chunk)
    {
        return SLOTS_OFFSET + (chunk % SLOTS) * SLOT_BYTES;
    }

    /** Chunks written so far; pairs with {@link #releaseFilled}. */
    long filledAcquire()
    {
        return (long)LONG.getAcquire(memory, FILLED_OFFSET);
    }

    /** Publishes the chunks written so far, the bytes of the last one with them (its plain stores). */
    void releaseFilled(final long chunks)
    {
        LONG.setRelease(memory, FILLED_OFFSET, chunks);
    }

    /** Chunks the owner has copied out so far; pairs with {@link #releaseDrained}. */
    long drainedAcquire()
    {
        return (long)LONG.getAcquire(memory, DRAINED_OFFSET);
    }

    /** Publishes the chunks copied out so far: their slots may be written again. */
    void releaseDrained(final long chunks)
    {
        LONG.setRelease(memory, DRAINED_OFFSET, chunks);
    }
}
