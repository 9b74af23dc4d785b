package bench;

import kupl.ShmComm;
import kupl.ShmType;
import kupl.ShmWin;
import kupl.local.SocketOob;

/**
 * One process of the allocation benchmark, started by {@link EngineBenchmark} through
 * {@code kupl.local.LocalJob} with {@code KUPL_SHM_TYPE} set in its environment.
 *
 * <p>For each size: warm-up pairs, then measured pairs of {@code allocate} and {@code close}
 * (alloc and free), each pair started together on every process with an out-of-band
 * barrier and timed on every process from before {@code allocate} to after {@code close}.
 * Then, on rank 0 alone, the reference: reserving and releasing the bytes that rank 0
 * reserves for such a window ({@link TmpfsReservation}; {@code posix}: its own segment,
 * {@code sls}: the whole window). Prints {@code bench alloc-<size>} lines (every rank) and
 * {@code bench reserve-<size>}, {@code bench release-<size>} lines (rank 0), in nanoseconds.
 *
 * <p>Arguments: sizes (bytes, comma-separated), warmupPairs, repetitions.
 */
public final class AllocRank
{
    public static void main(final String[] args) throws Exception
    {
        final String[] sizes = args[0].split(",");
        final int warmupPairs = Integer.parseInt(args[1]);
        final int repetitions = Integer.parseInt(args[2]);

        try (SocketOob oob = SocketOob.fromSystemProperties();
            ShmComm comm = ShmComm.create(oob.size(), oob.rank(), ProcessHandle.current().pid(), oob, null))
        {
            final int rank = comm.rank();
            for (final String size : sizes)
            {
                final long sizeBytes = Long.parseLong(size);
                final double[] pairNs = new double[repetitions];
                for (int repetition = -warmupPairs; repetition < repetitions; repetition++)
                {
                    oob.oobBarrier(null);
                    final long startNs = System.nanoTime();
                    final ShmWin win = comm.allocate(sizeBytes, false);
                    win.close();
                    final long elapsedNs = System.nanoTime() - startNs;
                    if (repetition >= 0)
                    {
                        pairNs[repetition] = elapsedNs;
                    }
                }
                Samples.print("alloc-" + sizeBytes, rank, 1, pairNs);
            }

            // The reference runs on rank 0 while the others wait, so that nothing competes with it.
            if (rank == 0)
            {
                final long reservedPerSegment = comm.config().shmType() == ShmType.SLS ? comm.size() : 1;
                for (final String size : sizes)
                {
                    final long reservedBytes = Long.parseLong(size) * reservedPerSegment;
                    if (reservedBytes == 0)
                    {
                        continue;
                    }
                    final double[] reserveNs = new double[repetitions];
                    final double[] releaseNs = new double[repetitions];
                    for (int repetition = -warmupPairs; repetition < repetitions; repetition++)
                    {
                        final long[] elapsedNs = TmpfsReservation.reserveAndReleaseNs(comm.config().directory(),
                            reservedBytes);
                        if (repetition >= 0)
                        {
                            reserveNs[repetition] = elapsedNs[0];
                            releaseNs[repetition] = elapsedNs[1];
                        }
                    }
                    Samples.print("reserve-" + size, rank, reservedBytes, reserveNs);
                    Samples.print("release-" + size, rank, reservedBytes, releaseNs);
                }
            }
            oob.oobBarrier(null);
        }
    }
}
