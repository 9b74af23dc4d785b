package kupl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The first rank found dead by any process that waits with this one: a word in shared memory,
 * 0 until a waiter records {@code rank + 1} with a compare-and-exchange, never changed after.
 * Every waiter names that rank from then on; otherwise a process waiting for a survivor that
 * has since given up (in rd, a partner that was itself waiting for the dead rank) would find
 * the survivor gone and blame it instead of the rank that really died.
 *
 * <p>A window keeps its record in its control object ({@link ControlDescriptor#DEAD_RANK_OFFSET});
 * a layer above the engine can place one in its own shared memory, or use
 * {@link #processLocal()} where only this process's waiters need to agree.
 */
public final class DeadRankRecord
{
    /** Shared memory a record needs (8-byte aligned, zero at first). */
    public static final long BYTES = Long.BYTES;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment word;

    /**
     * @param word {@link #BYTES} bytes of shared memory at an 8-byte boundary, zero when first used.
     * @throws IllegalArgumentException if the memory is too small or misaligned.
     */
    public DeadRankRecord(final MemorySegment word)
    {
        if (word.byteSize() < BYTES || (word.address() & (BYTES - 1)) != 0)
        {
            throw new IllegalArgumentException("a dead-rank record needs " + BYTES + " bytes at an 8-byte boundary, " +
                "not " + word.byteSize() + " bytes at 0x" + Long.toHexString(word.address()));
        }
        this.word = word;
    }

    /** A record in this process's heap, for waiters that need to agree only among themselves. */
    public static DeadRankRecord processLocal()
    {
        // A long[] element is 8-byte aligned, so atomic accesses to it are allowed.
        return new DeadRankRecord(MemorySegment.ofArray(new long[1]));
    }

    /** The recorded rank, or -1 if no waiter has found a death. */
    public int firstDeadRank()
    {
        // Acquire: pairs with the compare-and-exchange of record(); a plain int, nothing else is published.
        return (int)((long)LONG.getAcquire(word, 0L) - 1);
    }

    /**
     * Records {@code rank} unless a rank was recorded before.
     *
     * @return the rank recorded now: {@code rank}, or the one another waiter recorded first.
     */
    public int record(final int rank)
    {
        // Volatile compare-and-exchange: exactly one waiter's rank wins, and every later reader sees it.
        final long witness = (long)LONG.compareAndExchange(word, 0L, 0L, rank + 1L);
        return witness == 0 ? rank : (int)(witness - 1);
    }
}
