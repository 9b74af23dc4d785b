package kupl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * How the processes of a comm make a {@link ShmWin} ({@code kupl_shm_win_alloc}): agree on sizes and settings, so
 * that every process computes the same layout and takes the same decisions; reuse the memory of the comm's last
 * window when every process still holds it and every segment fits, else make and map new objects; then lend the
 * memory to the window with its views, its waiter and its fences. Every decision is taken from exchanged figures,
 * so that every process takes it alike, and every failure throws on every process.
 */
final class WindowAllocation
{
    private WindowAllocation()
    {
    }

    /**
     * Allocates a window of {@code sizeBytes} on this process; collective ({@code kupl_shm_win_alloc}).
     */
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
        final SegmentPlacement placement = SegmentPlacement.of(sizes, contiguous, config);

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
            final SegmentPlacement placement = SegmentPlacement.of(sizes, contiguous, comm.config());
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
        final SegmentPlacement placement)
    {
        final WindowMemory memory = comm.memoryCache().take();
        memory.reuse();
        // Already zero: every window that used it cleared its segments at free (see clearForReuse).
        return lendOrClose(comm, memory, sizes, contiguous, placement);
    }

    private static ShmWin lendOrClose(final ShmComm comm, final WindowMemory memory, final long[] sizes,
        final boolean contiguous, final SegmentPlacement placement)
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

    private static String settingsText(final KuplConfig config, final boolean contiguous)
    {
        return "KUPL_SHM_FENCE_ALGORITHM=" + config.fenceAlgorithm().envValue() +
            " KUPL_SHM_TYPE=" + config.shmType().envValue() +
            " KUPL_SHM_ENABLE_HUGEPAGE=" + (config.hugePages() ? "y" : "n") +
            " KUPL_SHM_ON_PACKAGE=" + (config.onPackage() ? "y" : "n") +
            " KUPL_SHM_DIR=" + config.directory() +
            " contiguous=" + (contiguous ? 1 : 0);
    }
}
