package mpi.rma.internal.message;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;

/**
 * The memory one process has attached to a dynamic window ({@link Win#attach}), numbered in an
 * address space private to the window and to this process. No raw address of heap memory is ever
 * used: an attached array is kept as its {@link MemorySegment}, so the collector may move it, and
 * its address is a number this table handed out.
 *
 * <p>Addresses only grow: each region's base is {@value #ALIGNMENT}-byte aligned and at least
 * {@value #ALIGNMENT} bytes past the end of the region attached before it, and no address is
 * handed out twice while the window lives. An address kept after its region was detached therefore
 * names nothing (never memory attached later), and one past a region's end is never another
 * region's first byte, so a stale or overrunning access is caught ({@link AccessFault}). The first
 * base is {@value #FIRST_ADDRESS}: 0 and small numbers, what an uninitialised address holds, are
 * never attached.
 *
 * <p>Not thread-safe: {@link ExposedMemory} guards it with the monitor that its operations run under.
 */
public final class AttachedRegions
{
    /** The base address of the first region attached; below it nothing is ever attached. */
    static final long FIRST_ADDRESS = 1L << 20;
    /** Alignment of every region's base, and the least gap between two regions. */
    static final long ALIGNMENT = 64;

    /** Attached regions by base address. */
    private final TreeMap<Long, MemorySegment> regions = new TreeMap<>();
    private long nextBase = FIRST_ADDRESS;

    /**
     * Attaches {@code memory}; returns the address of its first byte.
     *
     * @throws RmaException ERR_RMA_ATTACH if it overlaps memory already attached (the same memory included).
     */
    long attach(final String call, final MemorySegment memory)
    {
        for (final Map.Entry<Long, MemorySegment> region : regions.entrySet())
        {
            if (sameMemory(region.getValue(), memory))
            {
                throw new RmaException(ErrorClass.ERR_RMA_ATTACH, call + ": this memory (" + memory.byteSize() +
                    " bytes) is already attached to the window, at address " + region.getKey() + ": attach it once " +
                    "(detach it first to attach it again)");
            }
            if (region.getValue().asOverlappingSlice(memory).isPresent())
            {
                throw new RmaException(ErrorClass.ERR_RMA_ATTACH, call + ": this memory (" + memory.byteSize() +
                    " bytes) overlaps the region of " + region.getValue().byteSize() + " bytes attached at address " +
                    region.getKey() + ": attach memory that does not overlap, or detach that region first");
            }
        }
        final long base = nextBase;
        try
        {
            final long end = Math.addExact(Math.addExact(base, memory.byteSize()), ALIGNMENT);
            nextBase = Math.addExact(end, ALIGNMENT - 1) & -ALIGNMENT;
        }
        catch (final ArithmeticException e)
        {
            throw new RmaException(ErrorClass.ERR_RMA_ATTACH, call + ": the window's address space is used up (" +
                "addresses are never reused while the window lives): free the window and make a new one");
        }
        regions.put(base, memory);
        return base;
    }

    /**
     * Detaches {@code memory}, which must be what was attached (the same array, segment or buffer).
     *
     * @throws RmaException ERR_BASE if it is not attached.
     */
    void detach(final String call, final MemorySegment memory)
    {
        for (final Map.Entry<Long, MemorySegment> region : regions.entrySet())
        {
            if (sameMemory(region.getValue(), memory))
            {
                regions.remove(region.getKey());
                return;
            }
        }
        throw notAttached(call, memory, "detach memory that Win.attach returned an address for, and only once");
    }

    /**
     * The address of byte {@code byteOffset} of {@code memory}, which must lie in one attached
     * region (an attached array, segment or buffer, or a slice of an attached segment).
     *
     * @param byteOffset 0 to {@code memory.byteSize()}: the end is allowed, to compute where a region ends.
     * @throws RmaException ERR_BASE if {@code memory} is not attached; ERR_ARG if the offset is outside it.
     */
    long address(final String call, final MemorySegment memory, final long byteOffset)
    {
        if (byteOffset < 0 || byteOffset > memory.byteSize())
        {
            throw new RmaException(ErrorClass.ERR_ARG, call + ": byteOffset=" + byteOffset + " is outside the " +
                memory.byteSize() + " bytes of base: give 0 to " + memory.byteSize());
        }
        for (final Map.Entry<Long, MemorySegment> region : regions.entrySet())
        {
            final MemorySegment attached = region.getValue();
            if (sameMemory(attached, memory))
            {
                return region.getKey() + byteOffset;
            }
            if (contains(attached, memory))
            {
                // Both views of one array or of native memory: their addresses are comparable offsets.
                return region.getKey() + (memory.address() - attached.address()) + byteOffset;
            }
        }
        throw notAttached(call, memory, "attach it first (Win.attach), or give the memory that was attached");
    }

    /**
     * The {@code bytes} bytes at {@code address}, which must lie within one attached region.
     *
     * @throws AccessFault if they do not: nothing attached there, or past the region's end.
     */
    MemorySegment slice(final long address, final long bytes)
    {
        if (bytes == 0)
        {
            // Nothing is touched: MPI allows a zero-count access at any displacement.
            return MemorySegment.NULL;
        }
        final Map.Entry<Long, MemorySegment> region = regions.floorEntry(address);
        if (region == null || address - region.getKey() >= region.getValue().byteSize())
        {
            throw new AccessFault(ErrorClass.ERR_RMA_RANGE, address, bytes, AccessFault.NO_REGION, 0);
        }
        final long offset = address - region.getKey();
        final long regionBytes = region.getValue().byteSize();
        if (bytes > regionBytes - offset)
        {
            throw new AccessFault(ErrorClass.ERR_RMA_RANGE, address, bytes, region.getKey(), regionBytes);
        }
        return region.getValue().asSlice(offset, bytes);
    }

    /** How many regions are attached. */
    int count()
    {
        return regions.size();
    }

    /** Whether two segments are the same memory: same backing array or native memory, start and size. */
    private static boolean sameMemory(final MemorySegment attached, final MemorySegment given)
    {
        return attached.equals(given) && attached.byteSize() == given.byteSize();
    }

    /** Whether {@code part} lies within {@code whole}: the same array or native memory, and inside it. */
    private static boolean contains(final MemorySegment whole, final MemorySegment part)
    {
        // Overlapping segments have one backing, so their addresses (offsets in one array, or native) compare.
        return part.byteSize() > 0 && whole.asOverlappingSlice(part).isPresent() &&
            part.address() >= whole.address() &&
            part.address() - whole.address() <= whole.byteSize() - part.byteSize();
    }

    private static RmaException notAttached(final String call, final MemorySegment memory, final String advice)
    {
        return new RmaException(ErrorClass.ERR_BASE, call + ": this memory (" + memory.byteSize() + " bytes) is not " +
            "attached to the window (never attached, or detached already): " + advice);
    }
}
