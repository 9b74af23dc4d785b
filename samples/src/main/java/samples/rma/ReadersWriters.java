package samples.rma;

import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import mpi.MPI;
import mpi.rma.Win;

/**
 * Readers and writers of one shared record, kept consistent with passive-target locks. The
 * record, in rank 0's segment, is {@value #RECORD_LONGS} longs that must always hold the same
 * number, its version. Odd ranks are writers: {@value #DEFAULT_UPDATES} times each, under an
 * exclusive lock on rank 0, a writer reads the record and writes version + 1 into every slot,
 * one {@link Win#put} per slot. Even ranks are readers: until they see the last version, every
 * {@value #READ_PAUSE_US} us, under a shared lock, a reader gets the record and checks that all
 * slots agree.
 *
 * <p>What it shows: {@code lock(LOCK_EXCLUSIVE)} keeps everyone else out, so a writer's
 * read-modify-write loses no update and no reader sees a half-written ("torn") record;
 * {@code lock(LOCK_SHARED)} lets readers in together. No fence is needed between the ranks
 * while they work: each lock/unlock pair is its own epoch, between one origin and one target.
 *
 * <p>At the end rank 0 prints the final version: writers x updates, if no update was lost.
 * Run: {@code bin/sample ReadersWriters [updatesPerWriter]} (default {@value #DEFAULT_UPDATES}; on 4
 * ranks: 2 writers, 2 readers).
 */
public final class ReadersWriters
{
    public static final int RECORD_LONGS = 8;
    public static final int DEFAULT_UPDATES = 50;
    /** Pause between a reader's reads, so that the writers get the lock between them. */
    public static final int READ_PAUSE_US = 50;
    /** Pause between a writer's updates, so that the readers see many versions. */
    public static final int WRITE_PAUSE_US = 200;

    private static final int HOST = 0;

    private ReadersWriters()
    {
    }

    /**
     * Runs one rank.
     *
     * @param args what MPJ Express's starter passes to {@link MPI#Init}; then optionally updates per writer.
     * @throws InterruptedException if a reader's pause is interrupted.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final String[] appArgs = MPI.Init(args);
        final int updates = SampleArgs.positive(appArgs, 0, "updatesPerWriter", DEFAULT_UPDATES);
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();

        final long recordBytes = rank == HOST ? RECORD_LONGS * Long.BYTES : 0;
        try (Win win = Win.allocateShared(recordBytes, Long.BYTES, null, MPI.COMM_WORLD))
        {
            if (rank == HOST)
            {
                win.base().fill((byte)0);
            }
            // Everyone starts from version 0; NOSUCCEED: lock epochs follow, not a fence epoch.
            win.fence(Win.MODE_NOSUCCEED);

            if (isWriter(rank))
            {
                write(win, rank, updates);
            }
            else
            {
                read(win, rank, (long)writers(size) * updates);
            }

            // Every unlock has completed its calls; this fence makes them visible to rank 0's loads.
            win.fence(Win.MODE_NOPRECEDE | Win.MODE_NOSUCCEED);
            if (rank == HOST)
            {
                final long[] record = new long[RECORD_LONGS];
                for (int slot = 0; slot < RECORD_LONGS; slot++)
                {
                    record[slot] = win.base().getAtIndex(ValueLayout.JAVA_LONG, slot);
                }
                final int writers = writers(size);
                System.out.printf(Locale.ROOT, "final record %s: version %d, expected %d writers x %d updates = %d: %s%n",
                    Arrays.toString(record), record[0], writers, updates, (long)writers * updates,
                    isConsistent(record) && record[0] == (long)writers * updates ? "no update lost" : "UPDATES LOST");
            }
        }
        MPI.Finalize();
    }

    /** Odd ranks write, even ranks read. */
    public static boolean isWriter(final int rank)
    {
        return (rank & 1) == 1;
    }

    /** How many of {@code size} ranks are writers. */
    public static int writers(final int size)
    {
        return size / 2;
    }

    private static void write(final Win win, final int rank, final int updates) throws InterruptedException
    {
        final long[] record = new long[RECORD_LONGS];
        for (int update = 0; update < updates; update++)
        {
            // Nobody else reads or writes the record until unlock.
            win.lock(Win.LOCK_EXCLUSIVE, HOST, 0);
            win.get(record, 0, RECORD_LONGS, MPI.LONG, HOST, 0, RECORD_LONGS, MPI.LONG);
            // Within one epoch, MPI does not order calls to the same memory: complete the get before
            // writing what it fetched.
            win.flush(HOST);
            final long[] next = {record[0] + 1};
            // Slot by slot, on purpose: without the lock a reader could see some slots new, some old.
            for (int slot = 0; slot < RECORD_LONGS; slot++)
            {
                win.put(next, 0, 1, MPI.LONG, HOST, slot, 1, MPI.LONG);
            }
            win.unlock(HOST);
            TimeUnit.MICROSECONDS.sleep(WRITE_PAUSE_US);
        }
        System.out.printf(Locale.ROOT, "writer rank %d: %d updates%n", rank, updates);
    }

    private static void read(final Win win, final int rank, final long lastVersion) throws InterruptedException
    {
        final long[] record = new long[RECORD_LONGS];
        int reads = 0;
        int torn = 0;
        int backwards = 0;
        int versions = 0;
        long first = -1;
        long last = -1;
        do
        {
            // Other readers may hold the lock too; a writer waits until no reader holds it.
            win.lock(Win.LOCK_SHARED, HOST, 0);
            win.get(record, 0, RECORD_LONGS, MPI.LONG, HOST, 0, RECORD_LONGS, MPI.LONG);
            win.unlock(HOST);
            reads++;
            if (!isConsistent(record))
            {
                torn++;
            }
            if (record[0] < last)
            {
                backwards++;
            }
            if (record[0] != last)
            {
                versions++;
            }
            if (first < 0)
            {
                first = record[0];
            }
            last = record[0];
            // Shared locks do not queue writers: a reader that never paused could keep them out.
            TimeUnit.MICROSECONDS.sleep(READ_PAUSE_US);
        }
        while (last < lastVersion);
        System.out.printf(Locale.ROOT, "reader rank %d: %d reads, %d torn, saw %d versions from %d to %d, " +
            "%d steps backwards%n", rank, reads, torn, versions, first, last, backwards);
    }

    private static boolean isConsistent(final long[] record)
    {
        for (final long slot : record)
        {
            if (slot != record[0])
            {
                return false;
            }
        }
        return true;
    }
}
