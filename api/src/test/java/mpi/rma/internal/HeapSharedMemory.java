package mpi.rma.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.function.BooleanSupplier;

import mpi.rma.internal.shared.ClientArea;
import mpi.rma.spi.SharedMemory;

/**
 * A {@link SharedMemory} for threads of one JVM standing in for processes: native memory from
 * a shared arena, a barrier as fence. For testing the API's own shared-memory code.
 */
public final class HeapSharedMemory implements SharedMemory
{
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] segments;
    private final MemorySegment clientArea;
    private final CyclicBarrier fence;

    public HeapSharedMemory(final int ranks, final long segmentBytes)
    {
        final MemorySegment all = arena.allocate(ranks * segmentBytes + 1, 64);
        segments = new MemorySegment[ranks];
        for (int rank = 0; rank < ranks; rank++)
        {
            segments[rank] = all.asSlice(rank * segmentBytes, segmentBytes);
        }
        clientArea = arena.allocate(ClientArea.requiredBytes(ranks), 128);
        fence = new CyclicBarrier(ranks);
    }

    @Override
    public MemorySegment segment(final int rank)
    {
        return segments[rank];
    }

    @Override
    public MemorySegment clientArea()
    {
        return clientArea;
    }

    @Override
    public void fence()
    {
        try
        {
            fence.await();
        }
        catch (final InterruptedException | BrokenBarrierException e)
        {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void awaitCondition(final BooleanSupplier condition, final String what)
    {
        while (!condition.getAsBoolean())
        {
            Thread.yield();
        }
    }

    @Override
    public void checkProcesses(final String call)
    {
        // Its processes are threads of the test, which ends them all together: none dies alone.
    }

    @Override
    public void free()
    {
        arena.close();
    }
}
