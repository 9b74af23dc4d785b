package samples.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import mpi.MPI;
import mpi.rma.Win;

/**
 * KUPL's {@code kupl_shm_win_alloc} example, the MPI-3 way (side by side with
 * {@code samples.kupl.KuplWinAllocExample}): allocate a shared window, fill rank 0's segment,
 * copy it on every other rank straight from rank 0's memory, and print {@code check success}
 * (or {@code check fail}). On 4 ranks that is three lines of {@code check success}.
 *
 * <p>What changes against the KUPL version: no comm to build from callbacks ({@code mpi.rma}
 * uses the MPJ Express communicator itself), exceptions instead of return codes, and
 * try-with-resources frees the window. Like the KUPL port, it fences between rank 0's stores
 * and the others' loads: without that fence the copy races with the stores.
 *
 * <p>Run: {@code bin/sample WinAllocExample} (4 ranks; {@code -np N} for another number).
 */
public final class WinAllocExample
{
    private static final int COUNT = 4;

    private WinAllocExample()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}.
     */
    public static void main(final String[] args)
    {
        MPI.Init(args);
        final int rank = MPI.COMM_WORLD.Rank();
        final long bufSize = COUNT * ValueLayout.JAVA_INT.byteSize();

        // Every process gets a segment of 4 ints; displacements count ints (unit 4 bytes).
        try (Win win = Win.allocateShared(bufSize, Integer.BYTES, null, MPI.COMM_WORLD))
        {
            final MemorySegment localBuffer = win.base();
            // Rank 0 fills its own segment with plain stores: it is ordinary memory.
            if (rank == 0)
            {
                for (int i = 0; i < COUNT; i++)
                {
                    localBuffer.setAtIndex(ValueLayout.JAVA_INT, i, i);
                }
            }
            // Everyone waits here until rank 0's stores are visible to everyone.
            win.fence(0);
            if (rank != 0)
            {
                // Rank 0's segment, mapped into this process too: copy it like memcpy would.
                final MemorySegment remoteBuffer = win.sharedQuery(0).memory();
                MemorySegment.copy(remoteBuffer, 0, localBuffer, 0, bufSize);
                boolean check = true;
                for (int i = 0; i < COUNT; i++)
                {
                    if (localBuffer.getAtIndex(ValueLayout.JAVA_INT, i) != i)
                    {
                        check = false;
                        break;
                    }
                }
                System.out.println(check ? "check success" : "check fail");
            }
            // Nobody may free (and unmap) rank 0's segment while another still copies from it: free is collective.
        }
        MPI.Finalize();
    }
}
