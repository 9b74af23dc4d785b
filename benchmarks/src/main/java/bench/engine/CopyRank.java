package bench.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import bench.harness.Samples;
import kupl.ShmComm;
import kupl.ShmWin;
import kupl.bootstrap.SocketOob;

/**
 * One of the two processes of the copy benchmark, started by {@link EngineBenchmark} through
 * {@code mpjrun.process.EngineJob} with {@code KUPL_SHM_TYPE} set in its environment.
 *
 * <p>Each round: rank 0 fills its segment with the round's byte, a fence publishes it, rank 1
 * copies rank 0's whole segment into its own with {@code MemorySegment.copy} (timed), checks
 * three bytes, and a second fence lets rank 0 refill. The first round also pays the page
 * faults of mapping both segments into rank 1's page tables and is reported on its own.
 * Then rank 1 alone times the reference: the same copy between two private off-heap
 * segments of one process ({@code Arena.ofConfined}).
 *
 * <p>Prints {@code bench copy-first}, {@code bench copy-shared} and {@code bench copy-private}
 * lines in GB/s (10^9 bytes per second). Arguments: segmentBytes, warmupCopies (at least 1),
 * repetitions.
 */
public final class CopyRank
{
    public static void main(final String[] args) throws Exception
    {
        final long segmentBytes = Long.parseLong(args[0]);
        final int warmupCopies = Math.max(1, Integer.parseInt(args[1]));
        final int repetitions = Integer.parseInt(args[2]);

        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null);
            ShmWin win = comm.allocate(segmentBytes, false))
        {
            final int rank = comm.rank();
            final double[] sharedGbPerS = new double[repetitions];
            double firstGbPerS = 0;
            for (int round = -warmupCopies; round < repetitions; round++)
            {
                final byte value = (byte)(round + warmupCopies + 1);
                if (rank == 0)
                {
                    win.base().fill(value);
                }
                win.fence();
                if (rank == 1)
                {
                    final MemorySegment own = win.base();
                    final long startNs = System.nanoTime();
                    MemorySegment.copy(win.segment(0), 0, own, 0, segmentBytes);
                    final long elapsedNs = System.nanoTime() - startNs;
                    check(own, value, "neighbour's segment");
                    if (round == -warmupCopies)
                    {
                        firstGbPerS = (double)segmentBytes / elapsedNs;
                    }
                    if (round >= 0)
                    {
                        sharedGbPerS[round] = (double)segmentBytes / elapsedNs;
                    }
                }
                win.fence();
            }

            if (rank == 1)
            {
                final double[] privateGbPerS = new double[repetitions];
                try (Arena arena = Arena.ofConfined())
                {
                    final MemorySegment source = arena.allocate(segmentBytes, 4096);
                    final MemorySegment target = arena.allocate(segmentBytes, 4096);
                    source.fill((byte)7);
                    for (int round = -warmupCopies; round < repetitions; round++)
                    {
                        final long startNs = System.nanoTime();
                        MemorySegment.copy(source, 0, target, 0, segmentBytes);
                        final long elapsedNs = System.nanoTime() - startNs;
                        if (round >= 0)
                        {
                            privateGbPerS[round] = (double)segmentBytes / elapsedNs;
                        }
                    }
                    check(target, (byte)7, "private segment");
                }
                Samples.print("copy-first", rank, segmentBytes, new double[] {firstGbPerS});
                Samples.print("copy-shared", rank, segmentBytes, sharedGbPerS);
                Samples.print("copy-private", rank, segmentBytes, privateGbPerS);
            }
        }
    }

    private static void check(final MemorySegment copy, final byte expected, final String what)
    {
        for (final long offset : new long[] {0, copy.byteSize() / 2, copy.byteSize() - 1})
        {
            final byte seen = copy.get(ValueLayout.JAVA_BYTE, offset);
            if (seen != expected)
            {
                throw new IllegalStateException("copy of the " + what + ": byte " + offset + " is " + seen +
                    ", expected " + expected);
            }
        }
    }
}
