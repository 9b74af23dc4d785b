package kupl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
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
    private final Arena arena;
    private final Fence fence;
    private final PeerFence peerFence;
    private final FreeBarrier freeBarrier;
    private final MemorySegment clientArea;
    private final Waiter waiter;
    /** Volatile: set by close() before it unmaps; a thread that reads it true fails with a clear message. */
    private volatile boolean freed;

    private ShmWin(final ShmComm comm, final long[] sizes, final MemorySegment[] segments, final boolean contiguous,
        final Arena arena, final Fence fence, final PeerFence peerFence, final FreeBarrier freeBarrier,
        final MemorySegment clientArea, final Waiter waiter)
    {
        this.comm = comm;
        this.rank = comm.rankUnchecked();
        this.sizes = sizes;
        this.segments = segments;
        this.contiguous = contiguous;
        this.arena = arena;
        this.fence = fence;
        this.peerFence = peerFence;
        this.freeBarrier = freeBarrier;
        this.clientArea = clientArea;
        this.waiter = waiter;
    }

    static ShmWin allocate(final ShmComm comm, final long sizeBytes, final boolean contiguous)
    {
        final KuplConfig config = comm.config();
        final OobExchange oob = comm.oob();
        final int rank = comm.rankUnchecked();
        final int ranks = comm.sizeUnchecked();

        // Step 1: agree on sizes and settings, so that every process computes the same layout.
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
        final String settings = settingsText(config, contiguous);
        final byte[] sizeRecord = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN)
            .putLong(sizeBytes).putLong(settings.hashCode()).putLong(Runtime.getRuntime().availableProcessors())
            .array();
        final ByteBuffer[] sizeRecords = oob.exchange("win alloc (sizes)", sizeRecord, problem);
        final long[] sizes = new long[ranks];
        long fewestCores = Long.MAX_VALUE;
        for (int peer = 0; peer < ranks; peer++)
        {
            sizes[peer] = sizeRecords[peer].getLong(0);
            fewestCores = Math.min(fewestCores, sizeRecords[peer].getLong(16));
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
        final boolean oneObject = contiguous || config.shmType() == ShmType.SLS;
        // In one object each process reserves its own part, as with one object per process: under
        // the default NUMA policy its pages then come from its own node, not all from rank 0's.
        // (No faster on one node: tmpfs serialises fallocate calls on one file.) Huge pages
        // cannot be reserved by unaligned parts, so rank 0 reserves those whole.
        final boolean reserveByParts = oneObject && !config.hugePages();
        if (oneObject)
        {
            checkTotalFits(sizes);
        }
        final long[] offsets = new long[ranks];
        long totalBytes = 0;
        for (int peer = 0; peer < ranks; peer++)
        {
            offsets[peer] = contiguous || !oneObject || sizes[peer] == 0 ? totalBytes :
                ControlDescriptor.align(totalBytes, SEGMENT_ALIGNMENT_BYTES);
            totalBytes = offsets[peer] + sizes[peer];
        }

        // Step 2: the creators create their objects (and reserve them, unless reserved by parts in step 3).
        final Arena arena = Arena.ofShared();
        final ControlDescriptor layout = new ControlDescriptor(ranks);
        final List<SharedMemoryObject> created = new ArrayList<>(2);
        SharedMemoryObject control = null;
        SharedMemoryObject data = null;
        problem = null;
        try
        {
            if (rank == 0)
            {
                control = SharedMemoryObject.create(config, layout.lengthBytes(), false, List.of(), true, arena);
                created.add(control);
                layout.initialise(new SharedWords(control.mapping()));
            }
            final long ownObjectBytes = oneObject ? (rank == 0 ? totalBytes : 0) : sizeBytes;
            if (ownObjectBytes > 0)
            {
                data = SharedMemoryObject.create(config, ownObjectBytes, config.hugePages(), numaNodes,
                    !reserveByParts, arena);
                created.add(data);
            }
        }
        catch (final RuntimeException e)
        {
            // Any failure, expected or not, is agreed on: the others must not wait for this process.
            problem = describe(e);
        }
        try
        {
            final ByteBuffer handles = ByteBuffer.allocate(2 * SegmentHandle.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            (control == null ? SegmentHandle.NONE : control.handle()).writeTo(handles);
            (data == null ? SegmentHandle.NONE : data.handle()).writeTo(handles);
            final ByteBuffer[] handleRecords = oob.exchange("win alloc (creating shared memory)", handles.array(),
                problem);

            // Step 3: everyone maps what the others created and, in one object, reserves its own part.
            problem = null;
            MemorySegment[] segments = null;
            SharedWords words = null;
            MemorySegment clientArea = null;
            try
            {
                final MemorySegment controlMemory = control != null ? control.mapping() :
                    SharedMemoryObject.mapPeer(SegmentHandle.readFrom(handleRecords[0], 0), 0, 0, 0, config.directory(),
                        arena);
                words = new SharedWords(controlMemory);
                layout.verify(words);
                clientArea = controlMemory.asSlice(layout.clientAreaOffset(), ControlDescriptor.clientAreaBytes(ranks));
                segments = oneObject ?
                    mapOneObject(rank, sizes, offsets, totalBytes, reserveByParts, data, handleRecords[0],
                        controlMemory.asSlice(0, 0), config.directory(), arena) :
                    mapObjectPerProcess(rank, sizes, data, handleRecords, controlMemory.asSlice(0, 0),
                        config.directory(), arena);
            }
            catch (final RuntimeException e)
            {
                problem = describe(e);
            }
            oob.agree("win alloc (mapping shared memory)", problem);

            // Every waiter of this window names the same dead rank: the first one recorded in its control object.
            final Waiter waiter = Waiter.fromConfig(config, comm.liveness().withRecord(new DeadRankRecord(
                words.memory().asSlice(ControlDescriptor.DEAD_RANK_OFFSET, DeadRankRecord.BYTES))));
            final FreeBarrier freeBarrier = new FreeBarrier(rank, ranks, words, waiter);
            return new ShmWin(comm, sizes, segments, contiguous, arena,
                Fence.create(config.fenceAlgorithm(), rank, layout, words, waiter, oversubscribed, freeBarrier),
                new PeerFence(rank, layout, words, waiter), freeBarrier, clientArea, waiter);
        }
        catch (final RuntimeException e)
        {
            arena.close();
            throw e;
        }
        finally
        {
            // Every process has mapped the objects (or the allocation failed): mappings alone keep them now.
            created.forEach(SharedMemoryObject::close);
        }
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

    /** Maps rank 0's object holding every segment, reserving this process's own part if asked to. */
    private static MemorySegment[] mapOneObject(final int rank, final long[] sizes, final long[] offsets,
        final long totalBytes, final boolean reserveOwnPart, final SharedMemoryObject ownData,
        final ByteBuffer rank0Handles, final MemorySegment empty, final Path directory, final Arena arena)
    {
        final long reserveBytes = reserveOwnPart ? sizes[rank] : 0;
        final MemorySegment all;
        if (totalBytes == 0)
        {
            all = empty;
        }
        else if (rank == 0)
        {
            if (reserveBytes > 0)
            {
                ownData.reserve(offsets[0], reserveBytes, directory);
            }
            all = ownData.mapping();
        }
        else
        {
            all = SharedMemoryObject.mapPeer(SegmentHandle.readFrom(rank0Handles, SegmentHandle.BYTES), 0,
                offsets[rank], reserveBytes, directory, arena);
        }
        final MemorySegment[] segments = new MemorySegment[sizes.length];
        for (int peer = 0; peer < sizes.length; peer++)
        {
            segments[peer] = all.asSlice(offsets[peer], sizes[peer]);
        }
        return segments;
    }

    /** Maps every other process's own object (each was reserved whole by its creator). */
    private static MemorySegment[] mapObjectPerProcess(final int rank, final long[] sizes,
        final SharedMemoryObject ownData, final ByteBuffer[] handleRecords, final MemorySegment empty,
        final Path directory, final Arena arena)
    {
        final MemorySegment[] segments = new MemorySegment[sizes.length];
        for (int peer = 0; peer < sizes.length; peer++)
        {
            if (sizes[peer] == 0)
            {
                segments[peer] = empty;
            }
            else
            {
                final MemorySegment mapping = peer == rank ? ownData.mapping() : SharedMemoryObject.mapPeer(
                    SegmentHandle.readFrom(handleRecords[peer], SegmentHandle.BYTES), peer, 0, 0, directory, arena);
                segments[peer] = mapping.asSlice(0, sizes[peer]);
            }
        }
        return segments;
    }

    private static String describe(final RuntimeException e)
    {
        return e instanceof KuplException ? e.getMessage() : e.toString();
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
        checkUsable();
        freed = true;
        try
        {
            freeBarrier.await(fence.epoch());
        }
        finally
        {
            arena.close();
            comm.windowFreed(this);
        }
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
