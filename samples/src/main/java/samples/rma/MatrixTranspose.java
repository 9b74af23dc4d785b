package samples.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;

import mpi.MPI;
import mpi.rma.Win;

/**
 * In-place transpose of an N x N matrix through a contiguous shared window: rank r owns rows
 * {@code r*R .. r*R+R-1} (R rows per rank, N = R x ranks), in its own segment, and the segments
 * lie back to back in rank order, so together they are the whole matrix, row after row.
 *
 * <p>What it shows: in a contiguous window (the default; {@code alloc_shared_noncontig=true}
 * turns it off) rank 0's segment is the start of one array that spans every rank's segment, so
 * element (i, j) is at index {@code i*N + j} of one view, whoever owns row i. The program checks
 * that each rank's segment starts where the previous one ends, then transposes in two phases:
 * every rank reads the columns it needs (its rows of the transpose) from the whole matrix, a
 * fence, then every rank overwrites its own rows. Without that fence a rank could overwrite rows
 * that another rank has not read yet.
 *
 * <p>Rank 0 prints the matrix before and after. Run:
 * {@code bin/sample MatrixTranspose [rowsPerRank]} (default {@value #DEFAULT_ROWS_PER_RANK}, on 4 ranks).
 */
public final class MatrixTranspose
{
    public static final int DEFAULT_ROWS_PER_RANK = 2;

    private static final ValueLayout.OfLong ELEMENT = ValueLayout.JAVA_LONG;

    private MatrixTranspose()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}; then optionally rows per rank.
     */
    public static void main(final String[] args)
    {
        final String[] appArgs = MPI.Init(args);
        final int rows = SampleArgs.positive(appArgs, 0, "rowsPerRank", DEFAULT_ROWS_PER_RANK);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        final int n = rows * size;
        final long segmentBytes = (long)rows * n * Long.BYTES;

        // No info: the window is contiguous. Longs keep every segment 8-byte aligned.
        try (Win win = Win.allocateShared(segmentBytes, Long.BYTES, null, MPI.COMM_WORLD))
        {
            // The whole matrix: rank 0's segment, widened to all ranks' bytes. reinterpret keeps the
            // segment's lifetime (it throws after free) and is a restricted method: run with
            // --enable-native-access=ALL-UNNAMED, as bin/sample does.
            final MemorySegment matrix = win.sharedQuery(0).memory().reinterpret(segmentBytes * size);
            final int firstRow = rank * rows;

            // Each rank fills its own rows through its own segment: element (i, j) = i*N + j.
            final MemorySegment own = win.base();
            for (int i = 0; i < rows; i++)
            {
                for (int j = 0; j < n; j++)
                {
                    own.setAtIndex(ELEMENT, (long)i * n + j, (long)(firstRow + i) * n + j);
                }
            }
            win.fence(Win.MODE_NOPRECEDE);

            if (rank == 0)
            {
                printLayout(win, size, matrix);
                print("A", matrix, n);
            }

            // Phase 1: read my rows of the transpose, which are columns of A spread over every rank.
            final long[] transposed = new long[rows * n];
            for (int i = 0; i < rows; i++)
            {
                for (int j = 0; j < n; j++)
                {
                    transposed[i * n + j] = matrix.getAtIndex(ELEMENT, (long)j * n + firstRow + i);
                }
            }
            // Everybody has read what they need before anybody overwrites.
            win.fence(0);
            // Phase 2: overwrite my own rows.
            MemorySegment.copy(transposed, 0, own, ELEMENT, 0, transposed.length);
            win.fence(Win.MODE_NOSUCCEED);

            if (rank == 0)
            {
                print("A^T", matrix, n);
            }
        }
        MPI.Finalize();
    }

    /** Shows that each segment starts where the previous ends: that is what "contiguous" means. */
    private static void printLayout(final Win win, final int size, final MemorySegment matrix)
    {
        for (int owner = 0; owner < size; owner++)
        {
            final MemorySegment segment = win.sharedQuery(owner).memory();
            System.out.printf(Locale.ROOT, "rank %d's segment: bytes %d to %d of the whole matrix%n", owner,
                segment.address() - matrix.address(), segment.address() - matrix.address() + segment.byteSize());
        }
    }

    private static void print(final String title, final MemorySegment matrix, final int n)
    {
        System.out.println(title + ":");
        final int width = Long.toString((long)n * n - 1).length() + 1;
        for (int i = 0; i < n; i++)
        {
            final StringBuilder line = new StringBuilder();
            for (int j = 0; j < n; j++)
            {
                line.append(String.format(Locale.ROOT, "%" + width + "d", matrix.getAtIndex(ELEMENT, (long)i * n + j)));
            }
            System.out.println(line);
        }
    }
}
