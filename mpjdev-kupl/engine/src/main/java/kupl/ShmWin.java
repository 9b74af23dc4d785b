package kupl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
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
 * object holding the fence flags ({@link ControlDescriptor}).
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
    /** Segments inside a shared object start on page boundaries unless the window is contiguous. */
    static final long SEGMENT_ALIGNMENT_BYTES = 4096;

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

    private ShmWin(final ShmComm comm, final long[] sizes, final MemorySegment[] segments, final boolean contiguous,
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

    static ShmWin allocate(final ShmComm comm, final long sizeBytes, final boolean contiguous)
    {
        final KuplConfig config = comm.config();
        final OobExchange oob = comm.oob();
        final int rank = comm.rankUnchecked();
        final int ranks = comm.sizeUnchecked();
        final WindowMemoryCache cache = comm.memoryCache();
        final ControlDescriptor layout = new ControlDescriptor(ranks);

        // Step 1: agree on sizes and settings, so that every process computes the same layout,
        // and on whether every process still holds the memory of the comm's last window.
        String problem = sizeBytes < 0 ? "size=" + sizeBytes + " is negative: give 0 or more bytes" : null;
        List<Integer> numaNodes = List.of();
        if (problem == null && config.onPackage())
        {
            numaNodes = MemoryNodes.memoryOnlyNodes(MemoryNodes.SYSFS_NODES);
            if (numaNodes.isEmpty())
            {
                problem = "KUPL_SHM_ON_PACKAGE=y, but this machine has no on-package high-bandwidth memory " +
                    "(no NUMA node with memory and no CPU; " + MemoryNodes.describe(MemoryNodes.SYSFS_NODES) +
                    "); set KUPL_SHM_ON_PACKAGE=n";
            }
        }
        WindowMemory kept = null;
        if (problem == null)
        {
            try
            {
                kept = prepareReuse(comm);
            }
            catch (final RuntimeException e)
            {
                // A process died before freeing the last window: nothing can reuse it; agreed below.
                problem = WindowMemory.describe(e);
            }
        }
        final String settings = settingsText(config, contiguous);
        final byte[] sizeRecord = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN)
            .putLong(sizeBytes).putLong(settings.hashCode()).putLong(CpuBinding.availableCpus())
            .putLong(kept == null ? 0 : kept.id()).array();
        final ByteBuffer[] sizeRecords = oob.exchange("win alloc (sizes)", sizeRecord, problem);
        final long[] sizes = new long[ranks];
        long fewestCores = Long.MAX_VALUE;
        boolean everyoneKeeps = kept != null;
        boolean anyoneKeeps = false;
        for (int peer = 0; peer < ranks; peer++)
        {
            sizes[peer] = sizeRecords[peer].getLong(0);
            fewestCores = Math.min(fewestCores, sizeRecords[peer].getLong(16));
            everyoneKeeps &= sizeRecords[peer].getLong(24) == sizeRecords[0].getLong(24);
            anyoneKeeps |= sizeRecords[peer].getLong(24) != 0;
            if (sizeRecords[peer].getLong(8) != sizeRecords[0].getLong(8))
            {
                // Every process sees the same records, so every process throws here.
                throw new KuplException("win alloc failed: rank " + peer + " uses other settings than rank 0 " +
                    "(this is rank " + rank + ": " + settings + "); every process needs the same KUPL_SHM_* " +
                    "variables and contiguity");
            }
        }

        // Decided from exchanged figures, so that every process decides alike (see RecursiveDoublingFence).
        final boolean oversubscribed = ranks > fewestCores;
        final Placement placement = Placement.of(sizes, contiguous, config);

        // Steps 2 and 3: reuse the kept memory if every segment fits on its reserved pages (every
        // process decides alike: same ids, same sizes, same capacities), else make and map new objects.
        if (everyoneKeeps && kept.fits(placement.oneObject(), sizes, placement.totalBytes()))
        {
            return reuse(comm, sizes, contiguous, placement);
        }
        // Released first, so that a window replacing a smaller one never needs the room of both. A
        // page returns only once every process has unmapped it: nobody reserves before everybody has
        // released (a barrier, only when some process kept memory; every process sees the same ids).
        cache.release();
        if (anyoneKeeps)
        {
            oob.barrier("win alloc (giving kept memory back)");
        }
        return lendOrClose(comm, WindowMemory.create(cache.nextId(), comm, layout, sizes, placement.offsets(),
            placement.totalBytes(), placement.oneObject(), numaNodes, oversubscribed), sizes, contiguous, placement);
    }

    /**
     * For a caller that agrees on the arguments itself (see {@link ShmComm#allocate(long[], boolean, long[])}):
     * reuses the kept memory without any exchange if every process holds it and the segments fit,
     * else allocates as {@link #allocate(ShmComm, long, boolean)} does.
     */
    static ShmWin allocateAgreed(final ShmComm comm, final long[] sizes, final boolean contiguous,
        final long[] keptIds)
    {
        final int ranks = comm.sizeUnchecked();
        if (sizes.length != ranks || keptIds.length != ranks)
        {
            throw new KuplException("win alloc: " + sizes.length + " sizes and " + keptIds.length +
                " kept-memory ids given for a comm of " + ranks + " processes: give one of each per process");
        }
        final WindowMemory kept = comm.memoryCache().peek();
        boolean everyoneKeeps = kept != null;
        for (int peer = 0; peer < ranks && everyoneKeeps; peer++)
        {
            // A negative size takes the path that checks it and fails on every process.
            everyoneKeeps = keptIds[peer] == kept.id() && sizes[peer] >= 0;
        }
        if (everyoneKeeps)
        {
            final Placement placement = Placement.of(sizes, contiguous, comm.config());
            if (kept.fits(placement.oneObject(), sizes, placement.totalBytes()))
            {
                return reuse(comm, sizes, contiguous, placement);
            }
        }
        return allocate(comm, sizes[comm.rankUnchecked()], contiguous);
    }

    /**
     * Gets the kept memory ready for reuse (on rank 0: waits for the last window's free, then
     * resets the control words) before the exchange that decides whether the next window reuses it.
     *
     * @return the kept memory, or null if none.
     * @throws PeerDeathException if a process died before freeing the last window; the memory is released.
     */
    static WindowMemory prepareReuse(final ShmComm comm)
    {
        final WindowMemoryCache cache = comm.memoryCache();
        final WindowMemory kept = cache.peek();
        if (kept != null && comm.rankUnchecked() == 0)
        {
            try
            {
                // Before the exchange, so that it publishes the reset to everyone (see resetControl).
                kept.resetControl(new ControlDescriptor(comm.sizeUnchecked()));
            }
            catch (final RuntimeException e)
            {
                cache.release();
                throw e;
            }
        }
        return kept;
    }

    /** Lends the kept memory, which every process holds and in which every segment fits, to a new window. */
    private static ShmWin reuse(final ShmComm comm, final long[] sizes, final boolean contiguous,
        final Placement placement)
    {
        final WindowMemory memory = comm.memoryCache().take();
        memory.reuse();
        // Already zero: every window that used it cleared its segments at free (see clearForReuse).
        return lendOrClose(comm, memory, sizes, contiguous, placement);
    }

    private static ShmWin lendOrClose(final ShmComm comm, final WindowMemory memory, final long[] sizes,
        final boolean contiguous, final Placement placement)
    {
        try
        {
            return lend(comm, memory, memory.segments(sizes, placement.offsets()), sizes, contiguous,
                new ControlDescriptor(sizes.length), memory.oversubscribed());
        }
        catch (final RuntimeException e)
        {
            memory.close();
            throw e;
        }
    }

    /**
     * Where each segment lies, the same on every process: one object holding every segment
     * ({@link ShmType#SLS} or contiguous), or one object per process.
     */
    private record Placement(boolean oneObject, long[] offsets, long totalBytes)
    {
        static Placement of(final long[] sizes, final boolean contiguous, final KuplConfig config)
        {
            final boolean oneObject = contiguous || config.shmType() == ShmType.SLS;
            if (oneObject)
            {
                checkTotalFits(sizes);
            }
            final long[] offsets = new long[sizes.length];
            long totalBytes = 0;
            for (int peer = 0; peer < sizes.length; peer++)
            {
                offsets[peer] = contiguous || !oneObject || sizes[peer] == 0 ? totalBytes :
                    ControlDescriptor.align(totalBytes, SEGMENT_ALIGNMENT_BYTES);
                totalBytes = offsets[peer] + sizes[peer];
            }
            return new Placement(oneObject, offsets, totalBytes);
        }
    }

    /** Makes the window over {@code memory}: its views of the segments, its waiter, its fences. */
    private static ShmWin lend(final ShmComm comm, final WindowMemory memory, final MemorySegment[] ownSegments,
        final long[] sizes, final boolean contiguous, final ControlDescriptor layout, final boolean oversubscribed)
    {
        final KuplConfig config = comm.config();
        final int rank = comm.rankUnchecked();
        final int ranks = sizes.length;
        // The window's own views of the memory: closing their arena at free makes every segment handed
        // out throw, while the memory itself may live on for the comm's next window.
        final Arena views = Arena.ofShared();
        final MemorySegment[] segments = new MemorySegment[ranks];
        for (int peer = 0; peer < ranks; peer++)
        {
            segments[peer] = ownSegments[peer].reinterpret(views, null);
        }
        final SharedWords words = new SharedWords(memory.control());
        final MemorySegment clientArea = memory.control().asSlice(layout.clientAreaOffset(),
            ControlDescriptor.clientAreaBytes(ranks)).reinterpret(views, null);
        // Every waiter of this window names the same dead rank: the first one recorded in its control object.
        final Waiter waiter = Waiter.fromConfig(config, comm.liveness().withRecord(new DeadRankRecord(
            words.memory().asSlice(ControlDescriptor.DEAD_RANK_OFFSET, DeadRankRecord.BYTES))));
        final FreeBarrier freeBarrier = new FreeBarrier(rank, memory.freeArrivalsTarget(ranks), words, waiter);
        memory.lentTo(freeBarrier);
        return new ShmWin(comm, sizes, segments, contiguous, memory, views,
            Fence.create(config.fenceAlgorithm(), rank, layout, words, waiter, oversubscribed, freeBarrier),
            new PeerFence(rank, layout, words, waiter), freeBarrier, clientArea, waiter);
    }

    /**
     * Throws, identically on every process (all see the same sizes), if one object cannot hold
     * every segment with its alignment: the offsets would wrap around past Long.MAX_VALUE.
     */
    private static void checkTotalFits(final long[] sizes)
    {
        try
        {
            long boundBytes = 0;
            for (final long size : sizes)
            {
                boundBytes = Math.addExact(boundBytes, Math.addExact(size, SEGMENT_ALIGNMENT_BYTES));
            }
        }
        catch (final ArithmeticException e)
        {
            throw new KuplException("win alloc failed: the segments add up to more than " + Long.MAX_VALUE +
                " bytes, too many for one shared object (sizes by rank: " + Arrays.toString(sizes) +
                "); ask for less");
        }
    }

    private static String settingsText(final KuplConfig config, final boolean contiguous)
    {
        return "KUPL_SHM_FENCE_ALGORITHM=" + config.fenceAlgorithm().envValue() +
            " KUPL_SHM_TYPE=" + config.shmType().envValue() +
            " KUPL_SHM_ENABLE_HUGEPAGE=" + (config.hugePages() ? "y" : "n") +
            " KUPL_SHM_ON_PACKAGE=" + (config.onPackage() ? "y" : "n") +
            " KUPL_SHM_DIR=" + config.directory() +
            " contiguous=" + (contiguous ? 1 : 0);
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
