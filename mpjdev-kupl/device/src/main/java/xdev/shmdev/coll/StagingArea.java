package xdev.shmdev.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

import kupl.ShmWin;

/**
 * The shared memory of one communicator's collectives: an engine window in which each rank owns two
 * staging slots, used alternately, one per phase. A phase is: each rank writes its slot, a fence or a flag
 * round, each rank reads any rank's slot.
 *
 * <pre>
 *  segment of rank r:
 *  +----------------------------+----------------------+----------------------------+----------------------+
 *  | header, slot 0 (32 bytes)  | data, slot 0         | header, slot 1 (32 bytes)  | data, slot 1         |
 *  +----------------------------+----------------------+----------------------------+----------------------+
 *  each slot starts a cache line (its data is rounded up to whole lines)
 *  header: 0       4       8               12              16                              24                  32
 *          +-------+-------+---------------+---------------+-------------------------------+-------------------+
 *          |status | type  | send elements | recv elements | flag: stamp of its last round | progress (stamped)|
 *          +-------+-------+---------------+---------------+-------------------------------+-------------------+
 * </pre>
 *
 * <p>Two ways to end a phase. {@link #fence()}: the engine's fence, a full memory barrier, so plain stores
 * and loads suffice. {@link #flagRound()}: each rank raises its slot's flag to the phase's stamp with a
 * release store after writing the slot, and waits until every rank's flag in that slot shows the stamp
 * (acquire loads): for a short vector this costs what the fence costs, since the flag shares cache lines
 * with the header and the start of the data (header and data come to the reader with the flag), where a
 * fence is followed by fetching each rank's header and data.
 *
 * <p>Why two slots make one fence or flag round per phase enough: a rank writes slot {@code p % 2} in phase
 * {@code p + 2} only after the fence or flag round of phase {@code p + 1}, which no rank passes before every
 * rank has joined it, that is, finished reading phase {@code p}. Both ways give that, so they can alternate.
 *
 * <p>Within a phase, after its fence, a rank can also stream: write more of its slot and count what it has
 * written, or what it has read of another's, in its slot's progress word ({@link #publishProgress}, a
 * release store), which others await ({@link #awaitProgress}); the count is stamped with the phase, so a
 * count left from an earlier phase never satisfies a wait. The two-slot rule above still holds: a phase's
 * streaming ends before its ranks join the next phase's fence.
 *
 * <p>The header lets every rank take the same decision from the same data: after the first phase of a
 * collective each rank reads all headers, and the collective runs here only if every rank could handle it
 * and the types and counts agree; otherwise every rank runs MPJ Express's own algorithm.
 */
final class StagingArea implements AutoCloseable
{
    /**
     * Header bytes before each slot's data: the data starts aligned for every type, and its first 32 bytes
     * share the flag's cache line.
     */
    static final long HEADER_BYTES = 32;
    private static final long CACHE_LINE_BYTES = 64;
    private static final long STATUS_OFFSET = 0;
    private static final long TYPE_OFFSET = 4;
    private static final long SEND_ELEMENTS_OFFSET = 8;
    private static final long RECV_ELEMENTS_OFFSET = 12;
    private static final long FLAG_OFFSET = 16;
    private static final long PROGRESS_OFFSET = 24;
    /** The flag word: release stores and acquire loads (coordinates: segment, byte offset). */
    private static final VarHandle FLAG = ValueLayout.JAVA_LONG.varHandle();
    /** Names the flag round's wait in the engine's errors (a rank that died, a closed window). */
    private static final String FLAG_ROUND = "collective flag round";
    /** Names a wait for another rank's progress within a phase in the engine's errors. */
    private static final String PROGRESS_WAIT = "collective's progress of a rank";
    /** Header status: this rank can run the collective here. */
    private static final int READY = 1;
    /** Header status: this rank cannot (a datatype, buffer or size that only MPJ Express handles). */
    private static final int UNSUPPORTED = 2;
    /** A count that the rank does not know or that does not matter to it (the receive side of a non-root). */
    static final int NO_COUNT = -1;
    private static final long[] COUNT_OFFSETS = {SEND_ELEMENTS_OFFSET, RECV_ELEMENTS_OFFSET};

    private final ShmWin win;
    private final MemorySegment[] segments;
    private final int rank;
    private final long slotBytes;
    private final long capacityBytes;
    /** The flag round's wait condition, made once: {@link #allFlagsRaised()}. */
    private final BooleanSupplier allFlagsRaised = this::allFlagsRaised;
    private long phase;
    private long readSlotOffset;
    /** During a flag round: the stamp awaited, and the first rank whose flag has not shown it yet. */
    private long awaitedStamp;
    private int nextFlagRank;
    /** The progress wait's condition, made once: {@link #progressReached()}. */
    private final BooleanSupplier progressReached = this::progressReached;
    /** During a progress wait: the stamped count awaited, the ranks awaited, and the next one to check. */
    private long awaitedProgress;
    private int progressRank;
    private int progressEnd;
    private int progressSkipped;

    StagingArea(final ShmWin win, final long capacityBytes)
    {
        this.win = win;
        this.capacityBytes = capacityBytes;
        this.slotBytes = slotBytes(capacityBytes);
        this.rank = win.comm().rank();
        final int size = win.comm().size();
        this.segments = new MemorySegment[size];
        for (int rank = 0; rank < size; rank++)
        {
            segments[rank] = win.segment(rank);
        }
    }

    /** Bytes of data one slot holds. */
    long capacityBytes()
    {
        return capacityBytes;
    }

    /** Bytes {@code segmentBytes(capacity)} a rank's segment needs. */
    static long segmentBytes(final long capacityBytes)
    {
        return 2 * slotBytes(capacityBytes);
    }

    /** Bytes of one slot, header and data, rounded up to whole cache lines so that each slot starts one. */
    private static long slotBytes(final long capacityBytes)
    {
        return (HEADER_BYTES + capacityBytes + CACHE_LINE_BYTES - 1) / CACHE_LINE_BYTES * CACHE_LINE_BYTES;
    }

    /** Where this phase's data starts in a rank's segment (for writing, before {@link #fence()}). */
    long writeOffset()
    {
        return (phase & 1) * slotBytes + HEADER_BYTES;
    }

    /** Where the last completed phase's data starts in a rank's segment (for reading, after {@link #fence()}). */
    long readOffset()
    {
        return readSlotOffset + HEADER_BYTES;
    }

    /** The segment of {@code rank}. */
    MemorySegment segment(final int rank)
    {
        return segments[rank];
    }

    /** Writes this rank's header for this phase: whether it can run the collective here, and its counts. */
    void writeHeader(final int rank, final ElementType type, final int sendElements, final int recvElements)
    {
        final MemorySegment own = segments[rank];
        final long header = (phase & 1) * slotBytes;
        own.set(ValueLayout.JAVA_INT, header + STATUS_OFFSET, type == null ? UNSUPPORTED : READY);
        own.set(ValueLayout.JAVA_INT, header + TYPE_OFFSET, type == null ? -1 : type.ordinal());
        own.set(ValueLayout.JAVA_INT, header + SEND_ELEMENTS_OFFSET, sendElements);
        own.set(ValueLayout.JAVA_INT, header + RECV_ELEMENTS_OFFSET, recvElements);
    }

    /**
     * After the fence: whether every rank said it can run the collective here, with the same element type,
     * and every count that a rank gave ({@link #NO_COUNT} aside) is the same number.
     */
    boolean allReady()
    {
        int type = Integer.MIN_VALUE;
        int count = NO_COUNT;
        for (final MemorySegment segment : segments)
        {
            if (segment.get(ValueLayout.JAVA_INT, readSlotOffset + STATUS_OFFSET) != READY)
            {
                return false;
            }
            final int rankType = segment.get(ValueLayout.JAVA_INT, readSlotOffset + TYPE_OFFSET);
            if (type != Integer.MIN_VALUE && rankType != type)
            {
                return false;
            }
            type = rankType;
            for (final long offset : COUNT_OFFSETS)
            {
                final int rankCount = segment.get(ValueLayout.JAVA_INT, readSlotOffset + offset);
                if (rankCount != NO_COUNT)
                {
                    if (count != NO_COUNT && rankCount != count)
                    {
                        return false;
                    }
                    count = rankCount;
                }
            }
        }
        return true;
    }

    /** Ends the phase: every rank's writes of this phase become visible to every rank's reads after it. */
    void fence()
    {
        if (EngineWaitAllocation.COUNTING)
        {
            EngineWaitAllocation.fence(win);
        }
        else
        {
            win.fence();
        }
        readSlotOffset = (phase & 1) * slotBytes;
        phase++;
    }

    /**
     * Ends the phase as {@link #fence()} does, by flags: raises this rank's flag in the phase's slot, then
     * waits until every rank's shows the phase (the engine's waiting: spin, yield, park, and an error naming
     * a rank that died meanwhile).
     */
    void flagRound()
    {
        final long slot = (phase & 1) * slotBytes;
        awaitedStamp = phase + 1;
        nextFlagRank = 0;
        // Release: the header and data written before are visible to whoever reads this stamp (acquire).
        FLAG.setRelease(segments[rank], slot + FLAG_OFFSET, awaitedStamp);
        if (!allFlagsRaised())
        {
            await(allFlagsRaised, FLAG_ROUND);
        }
        readSlotOffset = slot;
        phase++;
    }

    /**
     * After a phase's fence, while its slots are read: says that this rank has done {@code count} steps of
     * the phase's streaming (written or read that many pieces), with a release store, so that whoever sees the
     * count also sees what was written before it.
     */
    void publishProgress(final long count)
    {
        FLAG.setRelease(segments[rank], readSlotOffset + PROGRESS_OFFSET, stampedProgress(count));
    }

    /** Waits until {@code rank} has published at least {@code count} steps in this phase. */
    void awaitProgress(final int rank, final long count)
    {
        awaitProgress(rank, rank + 1, -1, count);
    }

    /** Waits until every rank but {@code skipped} has published at least {@code count} steps in this phase. */
    void awaitProgressOfAllBut(final int skipped, final long count)
    {
        awaitProgress(0, segments.length, skipped, count);
    }

    private void awaitProgress(final int from, final int end, final int skipped, final long count)
    {
        awaitedProgress = stampedProgress(count);
        progressRank = from;
        progressEnd = end;
        progressSkipped = skipped;
        if (!progressReached())
        {
            await(progressReached, PROGRESS_WAIT);
        }
    }

    /** A count of this phase's steps, above every count of an earlier phase (the phase in the high half). */
    private long stampedProgress(final long count)
    {
        return phase << 32 | count;
    }

    /** Whether the ranks awaited have published {@link #awaitedProgress}; resumes at the first not seen yet. */
    private boolean progressReached()
    {
        final long offset = readSlotOffset + PROGRESS_OFFSET;
        while (progressRank < progressEnd)
        {
            if (progressRank != progressSkipped &&
                (long)FLAG.getAcquire(segments[progressRank], offset) < awaitedProgress)
            {
                return false;
            }
            progressRank++;
        }
        return true;
    }

    /** The engine's waiting (spin, yield, park; an error naming a rank that died meanwhile). */
    private void await(final BooleanSupplier condition, final String what)
    {
        if (EngineWaitAllocation.COUNTING)
        {
            EngineWaitAllocation.await(win, condition, what);
        }
        else
        {
            win.awaitCondition(condition, what);
        }
    }

    /** Whether every rank's flag shows {@link #awaitedStamp}; resumes at the first rank not seen yet. */
    private boolean allFlagsRaised()
    {
        final long offset = (phase & 1) * slotBytes + FLAG_OFFSET;
        while (nextFlagRank < segments.length)
        {
            if ((long)FLAG.getAcquire(segments[nextFlagRank], offset) < awaitedStamp)
            {
                return false;
            }
            nextFlagRank++;
        }
        return true;
    }

    /** Frees the window; collective. */
    @Override
    public void close()
    {
        win.close();
    }
}
