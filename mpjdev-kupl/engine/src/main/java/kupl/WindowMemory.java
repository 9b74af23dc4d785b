package kupl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The shared memory behind a window, as this process maps it: the control object and the
 * objects holding the segments, in an arena of their own. A window borrows it; when the window
 * is freed, its comm may keep it ({@link WindowMemoryCache}) and lend it to a later window whose
 * segments fit, which then costs no new object, no page reservation and no out-of-band round.
 *
 * <p><b>Same on every process.</b> Every process builds its {@code WindowMemory} in the same
 * collective call, so they agree on its {@link #id()}, its capacities and its number of
 * {@link #uses()}; a window reuses it only if every process says it holds it (see
 * {@link ShmWin}).
 *
 * <p><b>Pages stay reserved.</b> Reused memory keeps the pages its first window reserved
 * ({@code fallocate}), and a window reuses it only where every byte of every segment lies on
 * such pages, so a reused window can never meet a missing page either (no SIGBUS).
 */
final class WindowMemory implements AutoCloseable
{
    private final long id;
    private final Arena arena;
    private final MemorySegment control;
    private final boolean oneObject;
    /** One object: the whole object ({@code [0]}); one object per process: each rank's object (empty if none). */
    private final MemorySegment[] objects;
    private final boolean oversubscribed;
    private int uses = 1;
    /** The free of the window that uses (or last used) this memory. */
    private FreeBarrier freeBarrier;

    private WindowMemory(final long id, final Arena arena, final MemorySegment control, final boolean oneObject,
        final MemorySegment[] objects, final boolean oversubscribed)
    {
        this.oversubscribed = oversubscribed;
        this.id = id;
        this.arena = arena;
        this.control = control;
        this.oneObject = oneObject;
        this.objects = objects;
    }

    /**
     * Creates and maps a window's objects; collective: two out-of-band exchanges (the handles of
     * what each process created; then whether everyone could map them), so that a failure on one
     * process fails the call on every process and frees whatever was made.
     *
     * @param id             the comm's number for this memory, the same on every process.
     * @param oversubscribed whether the processes outnumber the cores (agreed from exchanged figures): the
     *                       fences of every window on this memory are chosen by it.
     */
    static WindowMemory create(final long id, final ShmComm comm, final ControlDescriptor layout, final long[] sizes,
        final long[] offsets, final long totalBytes, final boolean oneObject, final List<Integer> numaNodes,
        final boolean oversubscribed)
    {
        final KuplConfig config = comm.config();
        final OobExchange oob = comm.oob();
        final int rank = comm.rankUnchecked();
        // In one object each process reserves its own part, as with one object per process: under
        // the default NUMA policy its pages then come from its own node, not all from rank 0's.
        // (No faster on one node: tmpfs serialises fallocate calls on one file.) Huge pages
        // cannot be reserved by unaligned parts, so rank 0 reserves those whole.
        final boolean reserveByParts = oneObject && !config.hugePages();

        // The creators create their objects (and reserve them, unless reserved by parts below).
        final Arena arena = Arena.ofShared();
        final List<SharedMemoryObject> created = new ArrayList<>(2);
        SharedMemoryObject control = null;
        SharedMemoryObject data = null;
        String problem = null;
        try
        {
            if (rank == 0)
            {
                control = SharedMemoryObject.create(config, layout.lengthBytes(), false, List.of(), true, arena);
                created.add(control);
                layout.initialise(new SharedWords(control.mapping()));
            }
            final long ownObjectBytes = oneObject ? (rank == 0 ? totalBytes : 0) : sizes[rank];
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

            // Everyone maps what the others created and, in one object, reserves its own part.
            problem = null;
            WindowMemory memory = null;
            try
            {
                final Path directory = config.directory();
                final MemorySegment controlMemory = control != null ? control.mapping() :
                    SharedMemoryObject.mapPeer(SegmentHandle.readFrom(handleRecords[0], 0), 0, 0, 0, directory, arena);
                layout.verify(new SharedWords(controlMemory));
                final MemorySegment empty = controlMemory.asSlice(0, 0);
                memory = new WindowMemory(id, arena, controlMemory, oneObject, oneObject ?
                    new MemorySegment[] {mapOneObject(rank, sizes, offsets, totalBytes, reserveByParts, data,
                        handleRecords[0], empty, directory, arena)} :
                    mapObjectPerProcess(rank, sizes, data, handleRecords, empty, directory, arena), oversubscribed);
            }
            catch (final RuntimeException e)
            {
                problem = describe(e);
            }
            oob.agree("win alloc (mapping shared memory)", problem);
            return memory;
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

    /** Maps rank 0's object holding every segment, reserving this process's own part if asked to. */
    private static MemorySegment mapOneObject(final int rank, final long[] sizes, final long[] offsets,
        final long totalBytes, final boolean reserveOwnPart, final SharedMemoryObject ownData,
        final ByteBuffer rank0Handles, final MemorySegment empty, final Path directory, final Arena arena)
    {
        final long reserveBytes = reserveOwnPart ? sizes[rank] : 0;
        if (totalBytes == 0)
        {
            return empty;
        }
        if (rank == 0)
        {
            if (reserveBytes > 0)
            {
                ownData.reserve(offsets[0], reserveBytes, directory);
            }
            return ownData.mapping();
        }
        return SharedMemoryObject.mapPeer(SegmentHandle.readFrom(rank0Handles, SegmentHandle.BYTES), 0,
            offsets[rank], reserveBytes, directory, arena);
    }

    /** Maps every other process's own object (each was reserved whole by its creator). */
    private static MemorySegment[] mapObjectPerProcess(final int rank, final long[] sizes,
        final SharedMemoryObject ownData, final ByteBuffer[] handleRecords, final MemorySegment empty,
        final Path directory, final Arena arena)
    {
        final MemorySegment[] objects = new MemorySegment[sizes.length];
        for (int peer = 0; peer < sizes.length; peer++)
        {
            if (sizes[peer] == 0)
            {
                objects[peer] = empty;
            }
            else
            {
                objects[peer] = peer == rank ? ownData.mapping() : SharedMemoryObject.mapPeer(
                    SegmentHandle.readFrom(handleRecords[peer], SegmentHandle.BYTES), peer, 0, 0, directory, arena);
            }
        }
        return objects;
    }

    /** The message a failure is agreed with: a KuplException's own, else what the exception is. */
    static String describe(final RuntimeException e)
    {
        return e instanceof KuplException ? e.getMessage() : e.toString();
    }

    /** The comm's number for this memory, the same on every process; never 0. */
    long id()
    {
        return id;
    }

    /** Whether the processes outnumber the cores, as agreed when the memory was made. */
    boolean oversubscribed()
    {
        return oversubscribed;
    }

    /** How many windows have used this memory, the current one included (the same on every process). */
    int uses()
    {
        return uses;
    }

    /** Bytes this process maps for it: what keeping it holds on to. */
    long mappedBytes()
    {
        long bytes = control.byteSize();
        for (final MemorySegment object : objects)
        {
            bytes += object.byteSize();
        }
        return bytes;
    }

    /**
     * Whether a window of these segments can use this memory: the same kind (one object or one per
     * process), and every segment on pages reserved already.
     */
    boolean fits(final boolean oneObjectWanted, final long[] sizes, final long totalBytes)
    {
        if (oneObjectWanted != oneObject)
        {
            return false;
        }
        if (oneObject)
        {
            // Every page of the object is reserved: by parts, each process its segment's pages, which
            // cover the object (an aligned gap lies on the page where the segment before it ends);
            // with huge pages, by rank 0 whole.
            return totalBytes <= objects[0].byteSize();
        }
        for (int peer = 0; peer < sizes.length; peer++)
        {
            if (sizes[peer] > objects[peer].byteSize())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Rank 0, before the exchange of a window that may reuse this memory: waits until every
     * process has freed the last window (usually at once: each freed it before entering this
     * allocation), then zeroes the control object's flags and client area, as a new object has
     * them, but keeps the header and the free arrivals, which only grow ({@link #freeArrivalsTarget}).
     *
     * <p>Safe: once every process has arrived in free, none reads these words any more (a process
     * that waits in free reads only the arrivals); and the out-of-band exchange that follows orders
     * the zeroes before any process's use of the new window.
     *
     * @throws PeerDeathException if a process died before freeing the last window.
     */
    void resetControl(final ControlDescriptor layout)
    {
        freeBarrier.awaitEveryone();
        final long freeArrivalsEnd = ControlDescriptor.FREE_ARRIVALS_OFFSET + ControlDescriptor.WORD_PAD_BYTES;
        control.asSlice(ControlDescriptor.DEAD_RANK_OFFSET,
            ControlDescriptor.FREE_ARRIVALS_OFFSET - ControlDescriptor.DEAD_RANK_OFFSET).fill((byte)0);
        control.asSlice(freeArrivalsEnd, layout.lengthBytes() - freeArrivalsEnd).fill((byte)0);
        // Orders the zeroes before this process's part of the exchange (the exchange publishes them).
        VarHandle.fullFence();
    }

    /** Records the free of the window this memory is lent to. */
    void lentTo(final FreeBarrier windowFree)
    {
        this.freeBarrier = windowFree;
    }

    /** Lends the memory to one more window (every process does so in the same call). */
    void reuse()
    {
        uses++;
    }

    /** The free arrivals count at which every process has freed the current window: it grows by ranks per use. */
    long freeArrivalsTarget(final int ranks)
    {
        return (long)ranks * uses;
    }

    /** The control object. */
    MemorySegment control()
    {
        return control;
    }

    /** The segments of a window laid out as {@code sizes} and {@code offsets} say (offsets used in one object only). */
    MemorySegment[] segments(final long[] sizes, final long[] offsets)
    {
        final MemorySegment[] segments = new MemorySegment[sizes.length];
        for (int peer = 0; peer < sizes.length; peer++)
        {
            segments[peer] = oneObject ? objects[0].asSlice(offsets[peer], sizes[peer]) :
                objects[peer].asSlice(0, sizes[peer]);
        }
        return segments;
    }

    /** Unmaps everything: the memory goes back to the system once no process maps it. */
    @Override
    public void close()
    {
        arena.close();
    }
}
