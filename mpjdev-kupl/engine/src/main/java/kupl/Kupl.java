package kupl;

import java.lang.foreign.MemorySegment;

/**
 * The KUPL shared-memory calls with their C shapes, so that programs written against
 * {@code kupl.h} port line by line: every method returns {@link #KUPL_OK} or
 * {@link #KUPL_ERROR}, and results come back through one-element arrays (C's
 * out-pointers). On {@code KUPL_ERROR} one line on standard error says why.
 *
 * <p>Each call wraps the Java API ({@link ShmComm}, {@link ShmWin}), which throws
 * {@link KuplException} with the same message instead.
 *
 * <table>
 *   <caption>C to Java</caption>
 *   <tr><th>kupl.h</th><th>facade</th><th>Java API</th></tr>
 *   <tr><td>kupl_shm_comm_create</td><td>{@link #shmCommCreate}</td><td>{@link ShmComm#create}</td></tr>
 *   <tr><td>kupl_shm_win_alloc</td><td>{@link #shmWinAlloc}</td><td>{@link ShmComm#allocate}</td></tr>
 *   <tr><td>kupl_shm_win_query</td><td>{@link #shmWinQuery}</td><td>{@link ShmWin#segment}</td></tr>
 *   <tr><td>kupl_shm_fence</td><td>{@link #shmFence}</td><td>{@link ShmWin#fence}</td></tr>
 *   <tr><td>kupl_shm_win_free</td><td>{@link #shmWinFree}</td><td>{@link ShmWin#close}</td></tr>
 *   <tr><td>kupl_shm_comm_destroy</td><td>{@link #shmCommDestroy}</td><td>{@link ShmComm#close}</td></tr>
 * </table>
 */
public final class Kupl
{
    public static final int KUPL_OK = 0;
    public static final int KUPL_ERROR = -1;

    /** {@link ShmInfoFlag#IS_CONTIG} for windows allocated from now on, by any thread of this class loader. */
    private static volatile boolean contiguous;

    private Kupl()
    {
    }

    /** {@code kupl_shm_comm_create(size, rank, pid, oob_cbs, group, &comm)}; collective. */
    public static int shmCommCreate(final int size, final int rank, final long pid, final OobCallbacks oobCbs,
        final Object group, final ShmComm[] comm)
    {
        return call("kupl_shm_comm_create", () ->
        {
            checkOut(comm, "comm");
            if (oobCbs == null)
            {
                throw new KuplException("oob_cbs is null: pass the out-of-band allgather and barrier callbacks");
            }
            comm[0] = null;
            comm[0] = ShmComm.create(size, rank, pid, oobCbs, group);
        });
    }

    /** {@code kupl_shm_comm_rank(comm, &rank)}. */
    public static int shmCommRank(final ShmComm comm, final int[] rank)
    {
        return call("kupl_shm_comm_rank", () ->
        {
            checkOut(rank, "rank");
            rank[0] = usable(comm).rank();
        });
    }

    /** {@code kupl_shm_comm_size(comm, &size)}. */
    public static int shmCommSize(final ShmComm comm, final int[] size)
    {
        return call("kupl_shm_comm_size", () ->
        {
            checkOut(size, "size");
            size[0] = usable(comm).size();
        });
    }

    /** {@code kupl_shm_win_alloc(size, comm, &baseptr, &win)}; collective. */
    public static int shmWinAlloc(final long size, final ShmComm comm, final MemorySegment[] baseptr, final ShmWin[] win)
    {
        return call("kupl_shm_win_alloc", () ->
        {
            checkOut(baseptr, "baseptr");
            checkOut(win, "win");
            final ShmWin allocated = usable(comm).allocate(size, contiguous);
            baseptr[0] = allocated.base();
            win[0] = allocated;
        });
    }

    /** {@code kupl_shm_win_query(win, remote_rank, &baseptr)}. */
    public static int shmWinQuery(final ShmWin win, final int remoteRank, final MemorySegment[] baseptr)
    {
        return call("kupl_shm_win_query", () ->
        {
            checkOut(baseptr, "baseptr");
            baseptr[0] = usable(win).segment(remoteRank);
        });
    }

    /** {@code kupl_shm_fence(win)}; collective. */
    public static int shmFence(final ShmWin win)
    {
        return call("kupl_shm_fence", () -> usable(win).fence());
    }

    /** {@code kupl_shm_peer_fence(win, remote_rank)}: synchronises this process and one other. */
    public static int shmPeerFence(final ShmWin win, final int remoteRank)
    {
        return call("kupl_shm_peer_fence", () -> usable(win).peerFence(remoteRank));
    }

    /** {@code kupl_shm_win_free(win)}; collective. */
    public static int shmWinFree(final ShmWin win)
    {
        return call("kupl_shm_win_free", () -> usable(win).close());
    }

    /** {@code kupl_shm_comm_destroy(comm)}; collective. */
    public static int shmCommDestroy(final ShmComm comm)
    {
        return call("kupl_shm_comm_destroy", () -> usable(comm).close());
    }

    /** {@code kupl_shm_info_set(flag, value)}: {@link ShmInfoFlag#IS_CONTIG} with 0 or 1. */
    public static int shmInfoSet(final ShmInfoFlag flag, final int value)
    {
        return call("kupl_shm_info_set", () ->
        {
            if (flag == null)
            {
                throw new KuplException("flag is null: pass ShmInfoFlag.IS_CONTIG");
            }
            if (value != 0 && value != 1)
            {
                throw new KuplException(flag + " value=" + value + " is not allowed: give 0 or 1");
            }
            contiguous = value == 1;
        });
    }

    private static ShmComm usable(final ShmComm comm)
    {
        if (comm == null)
        {
            throw new KuplException("comm is null");
        }
        if (comm.isDestroyed())
        {
            throw new KuplException("comm has been destroyed");
        }
        return comm;
    }

    private static ShmWin usable(final ShmWin win)
    {
        if (win == null)
        {
            throw new KuplException("win is null");
        }
        if (win.isFreed())
        {
            throw new KuplException("win has been freed");
        }
        return win;
    }

    private static void checkOut(final Object[] out, final String name)
    {
        if (out == null || out.length < 1)
        {
            throw new KuplException(name + " must be an array of at least one element (the C out-pointer)");
        }
    }

    private static void checkOut(final int[] out, final String name)
    {
        if (out == null || out.length < 1)
        {
            throw new KuplException(name + " must be an array of at least one element (the C out-pointer)");
        }
    }

    private static int call(final String function, final Runnable body)
    {
        try
        {
            body.run();
            return KUPL_OK;
        }
        catch (final KuplException e)
        {
            System.err.println("kupl: " + function + ": " + e.getMessage());
            return KUPL_ERROR;
        }
        catch (final RuntimeException e)
        {
            // Not the engine's own error (a callback threw, say): a C caller still only gets a code.
            System.err.println("kupl: " + function + ": " + e);
            return KUPL_ERROR;
        }
    }
}
