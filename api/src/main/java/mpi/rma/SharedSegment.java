package mpi.rma;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * What {@link Win#sharedQuery(int)} returns ({@code MPI_Win_shared_query}): the size in bytes
 * of a process's segment, its displacement unit, and the memory itself for direct loads and
 * stores. The memory throws {@link IllegalStateException} on any access once the window is freed.
 */
public record SharedSegment(long size, int dispUnit, MemorySegment memory)
{
    public SharedSegment
    {
        Objects.requireNonNull(memory, "memory");
        if (size != memory.byteSize())
        {
            throw new IllegalArgumentException("size=" + size + " differs from the memory's " + memory.byteSize() + " bytes");
        }
    }
}
