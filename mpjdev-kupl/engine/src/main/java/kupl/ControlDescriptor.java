package kupl;

/**
 * Layout of a window's control object: the flag words of its fences and of its free.
 * Created by rank 0 of the window, mapped by every process.
 *
 * <pre>
 *   0                                                             128
 *   +---------------------------------------------------------------+
 *   | magic (8) | shape (8): rd slots per rank << 32 | ranks      |  header
 *   | dead rank + 1 (8): 0 until a waiter finds a rank dead         |
 *   | first freer (8): 0 until a process frees the window, then     |
 *   |   (fences it had completed + 1) << 20 | (its rank + 1)        |
 *   +---------------------------------------------------------------+
 *   | arrivals: total fence arrivals so far, only grows (linear;    |  128 B
 *   | rd too when the processes outnumber the cores)                |
 *   +---------------------------------------------------------------+
 *   | linear release: last completed fence epoch, only grows        |  128 B
 *   +---------------------------------------------------------------+
 *   | free arrivals: calls of free so far, only grows (a comm may   |  128 B
 *   | reuse the object for its next window: ranks per window)       |
 *   +---------------------------------------------------------------+
 *   | rd flag [rank 0][slot 0]  ... each 128 B                      |
 *   | ...  [rank r][slot s]: the last epoch in which rank r was      |  ranks * slots * 128 B
 *   |      signalled in slot s (pre round, rounds 0..L-1, post)     |
 *   +---------------------------------------------------------------+
 *   | peer flags row of rank 0: word s = last peer-fence count that  |  ranks * row B
 *   | rank s reached with rank 0 (row padded to 128 B)               |
 *   +---------------------------------------------------------------+
 *   | client area: zeroed words for the layer above the engine       |  (ranks + 1) * 128 B
 *   | (MPI locks, error flags, and two rows of ranks words per rank, |  + 2 * ranks * row B
 *   | for flags between pairs); the engine never touches them       |
 *   +---------------------------------------------------------------+
 * </pre>
 *
 * Every word is written by exactly one process per epoch and only ever grows, so a flag is
 * never reset under a reader (KUPL rotates slots and clears one ahead; monotonic epochs need
 * no clearing). A comm that reuses the object for its next window zeroes the flags once every
 * process has left the last window ({@link WindowMemory#resetControl}); the free arrivals, still
 * read then, keep growing. Each contended word gets two cache lines: one against false sharing, one
 * against the adjacent-line prefetcher.
 */
final class ControlDescriptor
{
    /** "KUPLCTL1" in ASCII. */
    static final long MAGIC = 0x4B55504C43544C31L;
    static final int WORD_PAD_BYTES = 128;

    static final long MAGIC_OFFSET = 0;
    static final long RANKS_OFFSET = 8;
    /**
     * 0, or 1 + the rank that the first process to notice a death found dead; set once by
     * compare-and-exchange, so that every waiter names that rank (a {@link DeadRankRecord}).
     */
    static final long DEAD_RANK_OFFSET = 16;
    /** Set once by compare-and-exchange by the first process to free the window (see {@link FreeBarrier}). */
    static final long FIRST_FREER_OFFSET = 24;
    static final long ARRIVALS_OFFSET;
    static final long LINEAR_RELEASE_OFFSET;
    static final long FREE_ARRIVALS_OFFSET;
    static final long RD_FLAGS_OFFSET;

    static
    {
        long offset = WORD_PAD_BYTES;
        ARRIVALS_OFFSET = offset;
        offset += WORD_PAD_BYTES;
        LINEAR_RELEASE_OFFSET = offset;
        offset += WORD_PAD_BYTES;
        FREE_ARRIVALS_OFFSET = offset;
        offset += WORD_PAD_BYTES;
        RD_FLAGS_OFFSET = offset;
    }

    private final int ranks;
    private final int rdSlotsPerRank;
    private final long peerFlagsOffset;
    private final long peerRowBytes;
    private final long clientAreaOffset;
    private final long lengthBytes;

    ControlDescriptor(final int ranks)
    {
        if (ranks < 1)
        {
            throw new IllegalArgumentException("ranks=" + ranks);
        }
        this.ranks = ranks;
        this.rdSlotsPerRank = RecursiveDoublingSchedule.slotCount(ranks);
        this.peerFlagsOffset = RD_FLAGS_OFFSET + (long)ranks * rdSlotsPerRank * WORD_PAD_BYTES;
        this.peerRowBytes = align((long)ranks * Long.BYTES, WORD_PAD_BYTES);
        this.clientAreaOffset = peerFlagsOffset + ranks * peerRowBytes;
        this.lengthBytes = clientAreaOffset + clientAreaBytes(ranks);
    }

    int ranks()
    {
        return ranks;
    }

    int rdSlotsPerRank()
    {
        return rdSlotsPerRank;
    }

    long lengthBytes()
    {
        return lengthBytes;
    }

    /**
     * Bytes of the client area of a window of {@code ranks} processes: a padded line per rank plus one,
     * then two rows per rank of a word per rank, each row padded to 128 B (flags between pairs of
     * processes, such as MPI's post and complete: each word written by one process only).
     */
    static long clientAreaBytes(final int ranks)
    {
        return (ranks + 1L) * WORD_PAD_BYTES + 2L * ranks * align((long)ranks * Long.BYTES, WORD_PAD_BYTES);
    }

    long clientAreaOffset()
    {
        return clientAreaOffset;
    }

    /** Offset of the flag in which {@code rank} is signalled in rd slot {@code slot}. */
    long rdFlagOffset(final int rank, final int slot)
    {
        return RD_FLAGS_OFFSET + ((long)rank * rdSlotsPerRank + slot) * WORD_PAD_BYTES;
    }

    /** Offset of the word that {@code writerRank} raises to tell {@code ownerRank} it reached a peer fence. */
    long peerFlagOffset(final int ownerRank, final int writerRank)
    {
        return peerFlagsOffset + ownerRank * peerRowBytes + (long)writerRank * Long.BYTES;
    }

    /** Writes the header of a new control object (all flags start at zero, as the file does). */
    void initialise(final SharedWords words)
    {
        words.putLong(RANKS_OFFSET, ((long)rdSlotsPerRank << 32) | ranks);
        // Release, written last: publishes the shape to verify()'s acquire load of the magic.
        words.putLongRelease(MAGIC_OFFSET, MAGIC);
    }

    /** Checks that a mapped control object was made for a window of this many processes. */
    void verify(final SharedWords words)
    {
        // Acquire: pairs with initialise()'s release of the magic, so the plain load of the shape
        // after it sees what the creator wrote.
        final long magic = words.getLongAcquire(MAGIC_OFFSET);
        final long shape = words.getLong(RANKS_OFFSET);
        if (magic != MAGIC || shape != (((long)rdSlotsPerRank << 32) | ranks))
        {
            throw new KuplException("window control object does not match: magic=0x" + Long.toHexString(magic) +
                " shape=0x" + Long.toHexString(shape) + ", expected " + ranks + " ranks");
        }
    }

    static long align(final long value, final long alignment)
    {
        return (value + alignment - 1) & -alignment;
    }
}
