package kupl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

/**
 * A window: one shared segment per process of a comm, directly loadable and storable by
 * every process, and the fences that order those accesses ({@code kupl_shm_win_h}).
 *
 * <p><b>Layout.</b> With {@link ShmType#POSIX} each process with a non-empty segment creates
 * its own object; with {@link ShmType#SLS}, or when the window is contiguous, rank 0 creates
 * one object holding every segment. Contiguous segments lie back to back in rank order
 * (rank i's segment starts where rank i-1's ends; empty segments take no room); otherwise
 * each segment of a shared object starts on its own page. Rank 0 also creates the control
 * object holding the fence flags ({@link ControlDescriptor}). The processes agree on all this, and on reusing the
 * comm's last window's memory, in {@link WindowAllocation}; where each segment lies is {@link SegmentPlacement}.
 *
 * <p><b>Lifetime.</b> {@link #close()} ({@code kupl_shm_win_free}) unmaps everything: any
 * later access through a segment obtained from this window throws
 * {@link IllegalStateException} instead of touching freed memory.
 *
 * <p><b>Memory consistency.</b> Stores made by any process before a {@link #fence()} are
 * visible to loads made by every process after it.
 */
public final class ShmWin implements AutoCloseable
{
    private final ShmComm comm;
    private final int rank;
    private final long[] sizes;
    private final MemorySegment[] segments;
    private final boolean contiguous;
    private final WindowMemory memory;
    /** Owns the segments handed out (views of the memory): closed at free, so that they throw afterwards. */
    private final Arena views;
    private final Fence fence;
    private final PeerFence peerFence;
    private final FreeBarrier freeBarrier;
    private final MemorySegment clientArea;
    private final Waiter waiter;
    /** Volatile: set by close() before it unmaps; a thread that reads it true fails with a clear message. */
    private volatile boolean freed;
    /** The waiter's ranks and dead-rank record, read by {@link #checkProcesses} on every call of the layer above. */
    private final Liveness liveness;
    /** Guarded by this: the watch {@link #watchProcesses} started, closed at free; null if none. */
    private DeathWatch watch;

    /** Made by {@link WindowAllocation}, which agrees on the memory with every process first. */
    ShmWin(final ShmComm comm, final long[] sizes, final MemorySegment[] segments, final boolean contiguous,
        final WindowMemory memory, final Arena views, final Fence fence, final PeerFence peerFence,
        final FreeBarrier freeBarrier, final MemorySegment clientArea, final Waiter waiter)
    {
        this.comm = comm;
        this.rank = comm.rankUnchecked();
        this.sizes = sizes;
        this.segments = segments;
        this.contiguous = contiguous;
        this.memory = memory;
        this.views = views;
        this.fence = fence;
        this.peerFence = peerFence;
        this.freeBarrier = freeBarrier;
        this.clientArea = clientArea;
        this.waiter = waiter;
        this.liveness = waiter.liveness();
    }

    /** This process's segment ({@code baseptr} of {@code kupl_shm_win_alloc}). */
    public MemorySegment base()
    {
        checkUsable();
        return segments[rank];
    }

    /**
     * The segment of process {@code peer}, for direct loads and stores ({@code kupl_shm_win_query}).
     * Its size is what that process asked for (possibly zero).
     */
    public MemorySegment segment(final int peer)
    {
        checkUsable();
        comm.checkRank(peer);
        return segments[peer];
    }

    /** Bytes that process {@code peer} asked for. */
    public long size(final int peer)
    {
        checkUsable();
        comm.checkRank(peer);
        return sizes[peer];
    }

    /** Whether the segments lie back to back in rank order. */
    public boolean isContiguous()
    {
        return contiguous;
    }

    /** The comm the window was allocated on. */
    public ShmComm comm()
    {
        return comm;
    }

    /**
     * Waits until every process of the window has called {@code fence}; collective
     * ({@code kupl_shm_fence}). A full memory barrier.
     *
     * @throws PeerDeathException if a process it waits for has died.
     */
    public void fence()
    {
        checkUsable();
        fence.await();
    }

    /**
     * Shared words for the layer above the engine (an MPI library's locks and error flags):
     * {@code (processes + 1) * 128} bytes, zero when the window is made, 8-byte aligned,
     * mapped by every process and never touched by the engine. Freed with the window.
     */
    public MemorySegment clientArea()
    {
        checkUsable();
        return clientArea;
    }

    /**
     * Returns once {@code condition} holds, waiting the way fences do (the window's
     * {@link Waiter}: spin briefly, then yield, then park), and checking meanwhile that the
     * window's processes are alive, so that a condition only a dead process could make true
     * fails instead of waiting for ever. The condition should read shared memory with acquire
     * or volatile semantics; it runs once per check, and its first true answer ends the wait.
     *
     * @param what what is being waited for, for the error message.
     * @throws PeerDeathException if a process of the window died meanwhile.
     */
    public void awaitCondition(final BooleanSupplier condition, final String what)
    {
        checkUsable();
        waiter.await(condition, what);
    }

    /**
     * The window's {@link Waiter}: the one way of waiting, for a layer above that waits on the
     * window's memory its own way (the shm device sleeps on a doorbell:
     * {@link Waiter#withParker}). Every waiter of the window names the same dead rank, the first
     * one recorded in the window's control object.
     */
    public Waiter waiter()
    {
        checkUsable();
        return waiter;
    }

    /**
     * Makes this process check, from a thread of its own at the liveness interval ({@code KUPL_SHM_LIVENESS_MS}),
     * that the window's processes are alive, until the window is freed: the first one found dead is recorded in
     * the window's control object, where {@link #checkProcesses} (in every process) and every wait read it. For a
     * layer whose calls may never wait, such as locks taken at once and stores into the segments; a death is then
     * known within one interval whatever the processes do. Once per window and process; later calls do nothing.
     */
    public synchronized void watchProcesses()
    {
        checkUsable();
        if (watch == null)
        {
            watch = DeathWatch.start(liveness, comm.config().livenessIntervalNs());
        }
    }

    /**
     * Throws if a process of the window is known to have died: found by a wait or a {@link #watchProcesses watch}
     * of any process of the window. One load of shared memory: cheap enough for every call of a layer above.
     *
     * @param what the call, for the message ("Win.lock of rank 2").
     * @throws PeerDeathException naming the first rank found dead.
     * @throws KuplException      if the window has been freed.
     */
    public void checkProcesses(final Object what)
    {
        checkUsable();
        liveness.checkRecorded(what);
    }

    /** Number of fences this process has completed on this window. */
    public long fenceCount()
    {
        return fence.epoch();
    }

    /**
     * Waits until process {@code peer} has called {@code peerFence} with this process's rank
     * ({@code kupl_shm_peer_fence}). A full memory barrier between the two.
     */
    public void peerFence(final int peer)
    {
        checkUsable();
        comm.checkRank(peer);
        peerFence.await(peer);
    }

    /**
     * Frees the window; collective ({@code kupl_shm_win_free}): waits until every process has
     * called free, then unmaps every segment. The local memory is released even if that wait
     * fails. Processes still waiting in a fence that this process never entered fail instead
     * of waiting for ever ({@link FreeBarrier}).
     */
    @Override
    public void close()
    {
        free(true);
    }

    /**
     * Frees the window as {@link #close()} does, but returns without waiting for the others to
     * call free: for a layer that has just synchronised its processes in their free itself (as
     * {@code mpi.rma}'s {@code Win.free} does with a fence), so that free costs no second wait.
     * No process may access this process's segment after that synchronisation.
     * Every segment throws afterwards all the same; if the comm reuses the memory for its next
     * window, it waits for every process's free first.
     */
    public void closeWithoutWaiting()
    {
        free(false);
    }

    private void free(final boolean waitForEveryone)
    {
        checkUsable();
        freed = true;
        // Before anyone can leave the free (and then exit, which is no death): the watch stops looking first.
        stopWatch();
        boolean everyoneDone = false;
        try
        {
            if (waitForEveryone)
            {
                freeBarrier.await(fence.epoch());
                clearForReuse();
            }
            else
            {
                clearForReuse();
                freeBarrier.arrive(fence.epoch());
            }
            everyoneDone = true;
        }
        finally
        {
            views.close();
            // Memory may serve another window unless waiting for a process failed (it died: nobody can reuse it).
            comm.windowFreed(this, memory, everyoneDone);
        }
    }

    private synchronized void stopWatch()
    {
        if (watch != null)
        {
            watch.close();
            watch = null;
        }
    }

    /**
     * Zeroes this process's segment if the comm will keep the memory, so that a window that reuses
     * it starts zeroed, as new pages are. Done at free, not at the next allocation: once a process
     * returns from allocating, another may already store into its segment (a passive-target epoch
     * needs no fence first). No process touches the segment any more: every process has arrived in
     * free, or (without waiting) the caller has synchronised them all in their free.
     */
    private void clearForReuse()
    {
        if (WindowMemoryCache.wouldKeep(memory) && !comm.isDestroyed())
        {
            segments[rank].fill((byte)0);
        }
    }

    /** The comm's number for the memory this window uses (windows that reuse kept memory share it). */
    long memoryId()
    {
        return memory.id();
    }

    /** Whether {@link #close()} has run. */
    public boolean isFreed()
    {
        return freed;
    }

    private void checkUsable()
    {
        if (freed)
        {
            throw new KuplException("the window has been freed");
        }
    }

    @Override
    public String toString()
    {
        return "ShmWin[rank " + rank + " of " + sizes.length + (contiguous ? ", contiguous" : "") +
            (freed ? ", freed" : "") + "]";
    }
}
