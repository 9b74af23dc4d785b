package mpi.rma.internal.message;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;

/**
 * The memory one process has attached to a dynamic window ({@code Win.attach}), numbered in an
 * address space private to the window and to this process. No raw address of heap memory is ever
 * used: an attached array is kept as its {@link MemorySegment}, so the collector may move it, and
 * its address is a number this table handed out.
 *
 * <p>Addresses are handed out in <em>blocks</em>, one per memory: the first piece of a Java array that is
 * attached reserves addresses for the whole array, and the first piece of native memory for the native
 * addresses up to {@value #NATIVE_REACH} bytes either side of it. Each piece attached while its block is
 * open gets the address of its own bytes in the block, so pieces whose memory touches get addresses that
 * touch, and an access may run from one into the next ({@link #span}), as it may in C, where an address is
 * the memory's. A block closes at the first detach of one of its pieces: memory attached after that gets a
 * new block. So an address names one attachment of one memory, never memory attached later, and a stale
 * address names nothing.
 *
 * <p>Blocks only grow: each block's base is {@value #ALIGNMENT}-byte aligned and at least
 * {@value #ALIGNMENT} bytes past the end of the block reserved before it, and no address is handed out
 * twice while the window lives. A run past the end of what is attached is never another block's first
 * byte, so an overrunning access is caught ({@link AccessFault}). The first base is {@value #FIRST_ADDRESS}:
 * 0 and small numbers, what an uninitialised address holds, are never attached.
 *
 * <p>Not thread-safe: {@link ExposedMemory} guards it with the monitor that its operations run under.
 */
public final class AttachedRegions
{
    /** The base address of the first block; below it nothing is ever attached. */
    static final long FIRST_ADDRESS = 1L << 20;
    /** Alignment of every block's base, and the least gap between two blocks. */
    static final long ALIGNMENT = 64;
    /** How far from the first piece of a native block other native memory may lie and still join it. */
    static final long NATIVE_REACH = 1L << 32;

    /** Attached regions by address. */
    private final TreeMap<Long, Region> regions = new TreeMap<>();
    /** The open blocks of arrays, by the array (identity: the same array, wherever the collector moves it). */
    private final Map<Object, Block> arrayBlocks = new IdentityHashMap<>();
    /** The open blocks of native memory. */
    private final List<Block> nativeBlocks = new ArrayList<>();
    private long nextBase = FIRST_ADDRESS;

    /** An attached piece of memory, and the block its address is in. */
    private record Region(MemorySegment memory, Block block)
    {
    }

    /**
     * Addresses reserved for one memory: position {@code p} of it (a byte offset in an array, or a native
     * address) is at address {@code base + p - firstPosition}, for positions {@code firstPosition} to
     * {@code endPosition}.
     */
    private static final class Block
    {
        private final Object array;
        private final long base;
        private final long firstPosition;
        private final long endPosition;

        Block(final Object array, final long base, final long firstPosition, final long endPosition)
        {
            this.array = array;
            this.base = base;
            this.firstPosition = firstPosition;
            this.endPosition = endPosition;
        }

        boolean covers(final MemorySegment memory)
        {
            return memory.address() >= firstPosition &&
                memory.address() - firstPosition <= endPosition - firstPosition - memory.byteSize();
        }

        long addressOf(final MemorySegment memory)
        {
            return base + (memory.address() - firstPosition);
        }
    }

    /**
     * Attaches {@code memory}; returns the address of its first byte.
     *
     * @throws RmaException ERR_RMA_ATTACH if it overlaps memory already attached (the same memory included), or
     *                      the window's addresses are used up.
     */
    long attach(final String call, final MemorySegment memory)
    {
        for (final Map.Entry<Long, Region> region : regions.entrySet())
        {
            final MemorySegment attached = region.getValue().memory();
            if (sameMemory(attached, memory))
            {
                throw new RmaException(ErrorClass.ERR_RMA_ATTACH, call + ": this memory (" + memory.byteSize() +
                    " bytes) is already attached to the window, at address " + region.getKey() + ": attach it once " +
                    "(detach it first to attach it again)");
            }
            if (attached.asOverlappingSlice(memory).isPresent())
            {
                throw new RmaException(ErrorClass.ERR_RMA_ATTACH, call + ": this memory (" + memory.byteSize() +
                    " bytes) overlaps the region of " + attached.byteSize() + " bytes attached at address " +
                    region.getKey() + ": attach memory that does not overlap, or detach that region first");
            }
        }
        final Block open = openBlock(memory);
        final Block block = open != null ? open : reserve(call, memory);
        final long address = block.addressOf(memory);
        regions.put(address, new Region(memory, block));
        return address;
    }

    /** The open block {@code memory} may join, or null: none, or a zero-size piece, which gets a block of its own. */
    private Block openBlock(final MemorySegment memory)
    {
        if (memory.byteSize() == 0 || MessageFaults.separatesAttachedRegions())
        {
            return null;
        }
        if (memory.heapBase().isPresent())
        {
            return arrayBlocks.get(memory.heapBase().get());
        }
        for (final Block block : nativeBlocks)
        {
            if (block.covers(memory))
            {
                return block;
            }
        }
        return null;
    }

    /** A new block for the memory {@code memory} is part of, open unless it can take nothing more. */
    private Block reserve(final String call, final MemorySegment memory)
    {
        final long position = memory.address();
        final boolean joinable = memory.byteSize() > 0 && !MessageFaults.separatesAttachedRegions();
        final Object array = memory.heapBase().orElse(null);
        final long first;
        final long end;
        if (!joinable)
        {
            first = position;
            end = position + memory.byteSize();
        }
        else if (array != null)
        {
            first = 0;
            end = WindowBase.arraySegment(array).byteSize();
        }
        else
        {
            first = Math.max(0, position - NATIVE_REACH);
            end = position + memory.byteSize() > Long.MAX_VALUE - NATIVE_REACH ? Long.MAX_VALUE :
                position + memory.byteSize() + NATIVE_REACH;
        }
        final Block block = new Block(array, nextBase, first, end);
        try
        {
            final long blockEnd = Math.addExact(Math.addExact(nextBase, end - first), ALIGNMENT);
            nextBase = Math.addExact(blockEnd, ALIGNMENT - 1) & -ALIGNMENT;
        }
        catch (final ArithmeticException e)
        {
            throw new RmaException(ErrorClass.ERR_RMA_ATTACH, call + ": the window's address space is used up (" +
                "addresses are never reused while the window lives): free the window and make a new one");
        }
        if (joinable && array != null)
        {
            arrayBlocks.put(array, block);
        }
        else if (joinable)
        {
            nativeBlocks.add(block);
        }
        return block;
    }

    /**
     * Detaches {@code memory}, which must be what was attached (the same array, segment or buffer); its block
     * takes no more memory.
     *
     * @throws RmaException ERR_BASE if it is not attached.
     */
    void detach(final String call, final MemorySegment memory)
    {
        for (final Map.Entry<Long, Region> region : regions.entrySet())
        {
            if (sameMemory(region.getValue().memory(), memory))
            {
                regions.remove(region.getKey());
                close(region.getValue().block());
                return;
            }
        }
        throw notAttached(call, memory, "detach memory that Win.attach returned an address for, and only once");
    }

    /** Closes {@code block}: memory attached from now on gets new addresses, so that none is handed out twice. */
    private void close(final Block block)
    {
        if (block.array != null)
        {
            arrayBlocks.remove(block.array, block);
        }
        else
        {
            nativeBlocks.remove(block);
        }
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
        for (final Map.Entry<Long, Region> region : regions.entrySet())
        {
            final MemorySegment attached = region.getValue().memory();
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
     * The {@code bytes} bytes at {@code address}, which must lie within attached memory: one region, or
     * regions whose addresses (and so whose memory) touch, one after the other.
     *
     * @throws AccessFault if they do not: nothing attached there, or past the end of what is attached.
     */
    AttachedSpan span(final long address, final long bytes)
    {
        if (bytes == 0)
        {
            // Nothing is touched: MPI allows a zero-count access at any displacement.
            return AttachedSpan.EMPTY;
        }
        final Map.Entry<Long, Region> first = firstRegion(address, bytes);
        final long offset = address - first.getKey();
        final MemorySegment memory = first.getValue().memory();
        if (bytes <= memory.byteSize() - offset)
        {
            return AttachedSpan.of(memory.asSlice(offset, bytes));
        }
        final List<MemorySegment> pieces = new ArrayList<>();
        pieces.add(memory.asSlice(offset));
        long covered = memory.byteSize() - offset;
        long next = first.getKey() + memory.byteSize();
        while (covered < bytes)
        {
            final MemorySegment following = touching(first, address, bytes, next, covered);
            final long take = Math.min(following.byteSize(), bytes - covered);
            pieces.add(following.asSlice(0, take));
            covered += take;
            next += following.byteSize();
        }
        return AttachedSpan.copyOf(pieces.toArray(MemorySegment[]::new), bytes);
    }

    /**
     * Checks that {@code bytes} bytes at {@code address} lie within attached memory, as {@link #span} does,
     * without copying them.
     *
     * @throws AccessFault if they do not.
     */
    void check(final long address, final long bytes)
    {
        if (bytes == 0)
        {
            return;
        }
        final Map.Entry<Long, Region> first = firstRegion(address, bytes);
        long covered = first.getKey() + first.getValue().memory().byteSize() - address;
        long next = first.getKey() + first.getValue().memory().byteSize();
        while (covered < bytes)
        {
            final long following = touching(first, address, bytes, next, covered).byteSize();
            covered += following;
            next += following;
        }
    }

    /** The region that holds byte {@code address}; an AccessFault if none does. */
    private Map.Entry<Long, Region> firstRegion(final long address, final long bytes)
    {
        final Map.Entry<Long, Region> region = regions.floorEntry(address);
        if (region == null || address - region.getKey() >= region.getValue().memory().byteSize())
        {
            throw new AccessFault(ErrorClass.ERR_RMA_RANGE, address, bytes, AccessFault.NO_REGION, 0);
        }
        return region;
    }

    /**
     * The memory of the region attached at {@code next}, where the attached run from {@code first} has reached
     * after {@code covered} bytes of the access; an AccessFault naming that run if nothing is attached there.
     */
    private MemorySegment touching(final Map.Entry<Long, Region> first, final long address, final long bytes,
        final long next, final long covered)
    {
        final Region region = regions.get(next);
        if (region == null || region.memory().byteSize() == 0)
        {
            throw new AccessFault(ErrorClass.ERR_RMA_RANGE, address, bytes, first.getKey(),
                address - first.getKey() + covered);
        }
        return region.memory();
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
