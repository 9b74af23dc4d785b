package bench.engine;

import bench.harness.Samples;
import bench.harness.TmpfsReservation;
import kupl.ShmComm;
import kupl.ShmType;
import kupl.ShmWin;
import kupl.bootstrap.SocketOob;

/**
 * One process of the allocation benchmark, started by {@link EngineBenchmark} through
 * {@code mpjrun.process.EngineJob} with {@code KUPL_SHM_TYPE} set in its environment.
 *
 * <p>Rounds of warm-up, then measured rounds; in each round one pair of {@code allocate} and
 * {@code close} (alloc and free) per size, each pair started together on every process with
 * an out-of-band barrier and timed on every process from before {@code allocate} to after
 * {@code close}. Then the reference, the pages alone: every process at once reserves and releases what it
 * reserves for such a window ({@link TmpfsReservation}; {@code posix}: its own segment;
 * {@code sls}: rank 0 the whole object; the engine has each process reserve its own part of it,
 * but tmpfs serialises fallocate on one file, so the pages cost the same), timed on rank 0. Prints
 * {@code bench alloc-<size>} lines (every rank) and {@code bench reserve-<size>},
 * {@code bench release-<size>} lines (rank 0), in nanoseconds.
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
            // Sizes take turns within each round, so that JIT compilation and other drift
            // fall on every size alike rather than on the first one measured.
            final double[][] pairNs = new double[sizes.length][repetitions];
            for (int repetition = -warmupPairs; repetition < repetitions; repetition++)
            {
                for (int s = 0; s < sizes.length; s++)
                {
                    final long sizeBytes = Long.parseLong(sizes[s]);
                    oob.oobBarrier(null);
                    final long startNs = System.nanoTime();
                    final ShmWin win = comm.allocate(sizeBytes, false);
                    win.close();
                    final long elapsedNs = System.nanoTime() - startNs;
                    if (repetition >= 0)
                    {
                        pairNs[s][repetition] = elapsedNs;
                    }
                }
            }
            for (int s = 0; s < sizes.length; s++)
            {
                Samples.print("alloc-" + sizes[s], rank, 1, pairNs[s]);
            }

            // The reference: every process reserves and releases what it reserves for such a window
            // (posix: its own segment; sls: rank 0 the whole object, which costs what the engine's
            // per-process parts of one file cost, since tmpfs serialises fallocate on a file), all at once.
            final boolean sls = comm.config().shmType() == ShmType.SLS;
            for (final String size : sizes)
            {
                final long sizeBytes = Long.parseLong(size);
                final long reservedBytes = !sls ? sizeBytes : rank == 0 ? sizeBytes * comm.size() : 0;
                if (sizeBytes == 0)
                {
                    continue;
                }
                final double[] reserveNs = new double[repetitions];
                final double[] releaseNs = new double[repetitions];
                for (int repetition = -warmupPairs; repetition < repetitions; repetition++)
                {
                    oob.oobBarrier(null);
                    if (reservedBytes > 0)
                    {
                        final long[] elapsedNs = TmpfsReservation.reserveAndReleaseNs(comm.config().directory(),
                            reservedBytes);
                        if (repetition >= 0)
                        {
                            reserveNs[repetition] = elapsedNs[0];
                            releaseNs[repetition] = elapsedNs[1];
                        }
                    }
                }
                if (rank == 0)
                {
                    Samples.print("reserve-" + size, rank, reservedBytes, reserveNs);
                    Samples.print("release-" + size, rank, reservedBytes, releaseNs);
                }
            }
            oob.oobBarrier(null);
        }
    }
}
