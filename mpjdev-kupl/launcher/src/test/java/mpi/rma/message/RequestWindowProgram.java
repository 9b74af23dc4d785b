package mpi.rma.message;

import java.util.Arrays;
import java.util.List;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.rma.ErrorClass;
import mpi.rma.Info;
import mpi.rma.RmaException;
import mpi.rma.Shared;
import mpi.rma.Win;
import mpi.rma.WinRequest;

/**
 * Request-based RMA ({@code Win.rPut}, {@code rGet}, {@code rAccumulate}, {@code rGetAccumulate}) on every
 * flavour the job's nodes allow: allocateShared (one node only), create, allocate and createDynamic. Each rank
 * prints {@code rank R CASE ok} or {@code rank R CASE FAILED: ...} for each case and flavour
 * ({@code CASE} is {@code name flavour}), then {@code DONE rank R}:
 * <ul>
 * <li>{@code rput ring}: in a lockAll epoch, rPut 4 longs (inline in the request) and 20 (a data message of
 *     their own) to the right neighbour; waitAll, flushAll; after a barrier rGet from the left neighbour and
 *     from this rank itself: the values are there;</li>
 * <li>{@code rget many}: 12 rGets to every rank in turn, of 1 and 16 longs, with a blocking get between them;
 *     waitAny returns every index once, then MPI.UNDEFINED; every array holds its target's values;</li>
 * <li>{@code rget unlock}: an rGet of 16 longs completed by the unlock alone (MPICH rget-unlock): the data is
 *     there when unlock returns, and the request then tests complete;</li>
 * <li>{@code raccumulate}: every rank adds 1 to a long of every rank with rAccumulate, 20 times, and takes
 *     tickets from rank 0's counter with rGetAccumulate(SUM); the totals are right and the tickets of all
 *     ranks are 0 to 20 * size - 1, each once (MPICH reqops);</li>
 * <li>{@code request rules}: request-based calls outside an epoch, in a fence epoch, to a rank not locked and
 *     on a no_locks window are ERR_RMA_SYNC; Cancel is ERR_REQUEST; MPJ Express's own Request.Waitall takes a
 *     WinRequest beside an Irecv, and its Waitany finds requests complete at the call and later.</li>
 * </ul>
 */
public final class RequestWindowProgram
{
    private static final int SLOTS = 64;
    private static final int ROUNDS = 20;
    private static final int MANY = 12;

    private static int rank;
    private static int size;

    private RequestWindowProgram()
    {
    }

    /** A window of {@link #SLOTS} longs per rank, and how to name slot i of a target whatever the flavour. */
    private record Window(Win win, long[] addresses, long[] own)
    {
        long disp(final int target, final int slot)
        {
            return addresses == null ? slot : addresses[target] + (long)slot * Long.BYTES;
        }

        void free()
        {
            win.free();
        }
    }

    public static void main(final String[] args) throws Exception
    {
        MPI.Init(args);
        rank = MPI.COMM_WORLD.Rank();
        size = MPI.COMM_WORLD.Size();
        final Intracomm node = Shared.split(MPI.COMM_WORLD);
        final boolean oneNode = node.Size() == size;
        final List<String> flavours = oneNode ? List.of("allocateShared", "create", "allocate", "createDynamic") :
            List.of("create", "allocate", "createDynamic");
        for (final String flavour : flavours)
        {
            rputRing(flavour);
            rgetMany(flavour);
            rgetUnlock(flavour);
            raccumulate(flavour);
            requestRules(flavour);
        }
        MPI.Finalize();
        System.out.println("DONE rank " + rank);
    }

    private static Window open(final String flavour, final Info info)
    {
        return switch (flavour)
        {
            case "allocateShared" -> new Window(Win.allocateShared(SLOTS * Long.BYTES, Long.BYTES, info,
                MPI.COMM_WORLD), null, null);
            case "allocate" -> new Window(Win.allocate(SLOTS * Long.BYTES, Long.BYTES, info, MPI.COMM_WORLD), null,
                null);
            case "create" ->
            {
                final long[] own = new long[SLOTS];
                yield new Window(Win.create(own, Long.BYTES, info, MPI.COMM_WORLD), null, own);
            }
            default ->
            {
                final long[] own = new long[SLOTS];
                final Win win = Win.createDynamic(info, MPI.COMM_WORLD);
                final long[] addresses = new long[size];
                MPI.COMM_WORLD.Allgather(new long[] {win.attach(own)}, 0, 1, MPI.LONG, addresses, 0, 1, MPI.LONG);
                yield new Window(win, addresses, own);
            }
        };
    }

    private static void rputRing(final String flavour)
    {
        final int right = (rank + 1) % size;
        final int left = (rank + size - 1) % size;
        final long[] four = values(rank, 4);
        final long[] twenty = values(100 + rank, 20);
        final Window w = open(flavour, null);
        w.win().lockAll(0);
        final WinRequest small = w.win().rPut(four, 0, 4, MPI.LONG, right, w.disp(right, 0), 4, MPI.LONG);
        final WinRequest large = w.win().rPut(twenty, 0, 20, MPI.LONG, right, w.disp(right, 8), 20, MPI.LONG);
        WinRequest.waitAll(small, large);
        w.win().flushAll();
        MPI.COMM_WORLD.Barrier();
        final long[] fromLeft = new long[24];
        final long[] fromSelf = new long[24];
        final WinRequest[] gets = {
            w.win().rGet(fromLeft, 0, 4, MPI.LONG, left, w.disp(left, 0), 4, MPI.LONG),
            w.win().rGet(fromLeft, 4, 20, MPI.LONG, left, w.disp(left, 8), 20, MPI.LONG),
            w.win().rGet(fromSelf, 0, 4, MPI.LONG, rank, w.disp(rank, 0), 4, MPI.LONG),
            w.win().rGet(fromSelf, 4, 20, MPI.LONG, rank, w.disp(rank, 8), 20, MPI.LONG)};
        WinRequest.waitAll(gets);
        w.win().unlockAll();
        final long[] expectedSelf = concat(values(left, 4), values(100 + left, 20));
        final long[] expectedFromLeft = concat(values((left + size - 1) % size, 4), values(100 + (left + size - 1) %
            size, 20));
        MPI.COMM_WORLD.Barrier();
        w.free();
        report("rput ring " + flavour, Arrays.equals(fromSelf, expectedSelf) &&
            Arrays.equals(fromLeft, expectedFromLeft) && small.Is_null() && large.Is_null(),
            "own " + Arrays.toString(fromSelf) + ", left's " + Arrays.toString(fromLeft));
    }

    private static void rgetMany(final String flavour)
    {
        final Window w = open(flavour, null);
        // Every rank fills its own slots with rank * 1000 + slot, then everyone reads.
        w.win().lock(Win.LOCK_EXCLUSIVE, rank, 0);
        w.win().put(values(rank * 1000, SLOTS), 0, SLOTS, MPI.LONG, rank, w.disp(rank, 0), SLOTS, MPI.LONG);
        w.win().unlock(rank);
        MPI.COMM_WORLD.Barrier();
        final long[][] into = new long[MANY][];
        final int[] targets = new int[MANY];
        final WinRequest[] requests = new WinRequest[MANY];
        final long[] between = new long[3];
        w.win().lockAll(0);
        for (int i = 0; i < MANY; i++)
        {
            targets[i] = (rank + i) % size;
            final int count = i % 2 == 0 ? 1 : 16;
            into[i] = new long[count];
            requests[i] = w.win().rGet(into[i], 0, count, MPI.LONG, targets[i], w.disp(targets[i], i), count,
                MPI.LONG);
            if (i == MANY / 2)
            {
                w.win().get(between, 0, 3, MPI.LONG, targets[i], w.disp(targets[i], 40), 3, MPI.LONG);
            }
        }
        final boolean[] seen = new boolean[MANY];
        boolean once = true;
        for (int n = 0; n < MANY; n++)
        {
            final int index = WinRequest.waitAny(requests);
            once &= index >= 0 && index < MANY && !seen[index];
            if (index >= 0 && index < MANY)
            {
                seen[index] = true;
            }
        }
        final boolean undefinedAfter = WinRequest.waitAny(requests) == MPI.UNDEFINED;
        w.win().flushAll();
        boolean values = Arrays.equals(between, values(targets[MANY / 2] * 1000 + 40, 3));
        for (int i = 0; i < MANY; i++)
        {
            values &= Arrays.equals(into[i], values(targets[i] * 1000 + i, into[i].length));
        }
        w.win().unlockAll();
        MPI.COMM_WORLD.Barrier();
        w.free();
        report("rget many " + flavour, once && undefinedAfter && values, "each index once " + once +
            ", UNDEFINED after " + undefinedAfter + ", values " + values);
    }

    private static void rgetUnlock(final String flavour)
    {
        final int right = (rank + 1) % size;
        final Window w = open(flavour, null);
        w.win().lock(Win.LOCK_EXCLUSIVE, rank, 0);
        w.win().put(values(rank * 1000, SLOTS), 0, SLOTS, MPI.LONG, rank, w.disp(rank, 0), SLOTS, MPI.LONG);
        w.win().unlock(rank);
        MPI.COMM_WORLD.Barrier();
        final long[] got = new long[16];
        w.win().lock(Win.LOCK_SHARED, right, 0);
        final WinRequest request = w.win().rGet(got, 0, 16, MPI.LONG, right, w.disp(right, 8), 16, MPI.LONG);
        w.win().unlock(right);
        final long[] atUnlock = got.clone();
        final boolean there = Arrays.equals(atUnlock, values(right * 1000 + 8, 16));
        final boolean complete = request.test();
        request.waitFor();
        MPI.COMM_WORLD.Barrier();
        w.free();
        report("rget unlock " + flavour, there && complete, "data when unlock returned " + Arrays.toString(atUnlock) +
            ", test " + complete);
    }

    private static void raccumulate(final String flavour)
    {
        final Window w = open(flavour, null);
        final long[] tickets = new long[ROUNDS];
        final WinRequest[] requests = new WinRequest[ROUNDS * (size + 1)];
        w.win().lockAll(0);
        int next = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            for (int target = 0; target < size; target++)
            {
                requests[next++] = w.win().rAccumulate(new long[] {1}, 0, 1, MPI.LONG, target, w.disp(target, 1), 1,
                    MPI.LONG, MPI.SUM);
            }
            requests[next++] = w.win().rGetAccumulate(new long[] {1}, 0, 1, MPI.LONG, tickets, round, 1, MPI.LONG, 0,
                w.disp(0, 2), 1, MPI.LONG, MPI.SUM);
        }
        WinRequest.waitAll(requests);
        w.win().unlockAll();
        MPI.COMM_WORLD.Barrier();
        final long[] mine = new long[1];
        w.win().lock(Win.LOCK_SHARED, rank, 0);
        w.win().rGet(mine, 0, 1, MPI.LONG, rank, w.disp(rank, 1), 1, MPI.LONG).waitFor();
        w.win().unlock(rank);
        final long[] all = new long[ROUNDS * size];
        MPI.COMM_WORLD.Allgather(tickets, 0, ROUNDS, MPI.LONG, all, 0, ROUNDS, MPI.LONG);
        Arrays.sort(all);
        boolean each = true;
        for (int i = 0; i < all.length; i++)
        {
            each &= all[i] == i;
        }
        MPI.COMM_WORLD.Barrier();
        w.free();
        report("raccumulate " + flavour, mine[0] == (long)ROUNDS * size && each, "total " + mine[0] + " (expected " +
            ROUNDS * size + "), tickets each once " + each);
    }

    private static void requestRules(final String flavour)
    {
        final int right = (rank + 1) % size;
        final StringBuilder failures = new StringBuilder();
        final Window w = open(flavour, null);
        final long[] one = new long[1];
        expect(failures, "outside an epoch", ErrorClass.ERR_RMA_SYNC,
            () -> w.win().rPut(one, 0, 1, MPI.LONG, right, w.disp(right, 0), 1, MPI.LONG));
        w.win().fence(0);
        expect(failures, "in a fence epoch", ErrorClass.ERR_RMA_SYNC,
            () -> w.win().rGet(one, 0, 1, MPI.LONG, right, w.disp(right, 0), 1, MPI.LONG));
        w.win().fence(Win.MODE_NOSUCCEED);
        if (size > 1)
        {
            w.win().lock(Win.LOCK_SHARED, right, 0);
            expect(failures, "to a rank not locked", ErrorClass.ERR_RMA_SYNC, () -> w.win().rAccumulate(one, 0, 1,
                MPI.LONG, rank, w.disp(rank, 0), 1, MPI.LONG, MPI.SUM));
            w.win().unlock(right);
        }
        w.win().lockAll(0);
        final WinRequest get = w.win().rGet(one, 0, 1, MPI.LONG, right, w.disp(right, 0), 1, MPI.LONG);
        expect(failures, "Cancel", ErrorClass.ERR_REQUEST, get::Cancel);
        final long[] received = new long[1];
        final int left = (rank + size - 1) % size;
        final Request irecv = MPI.COMM_WORLD.Irecv(received, 0, 1, MPI.LONG, left, 7);
        final Request isend = MPI.COMM_WORLD.Isend(new long[] {rank}, 0, 1, MPI.LONG, right, 7);
        Request.Waitall(new Request[] {irecv, get, isend});
        if (received[0] != left || !get.Is_null())
        {
            failures.append("; Request.Waitall: received ").append(received[0]).append(", WinRequest inactive ")
                .append(get.Is_null());
        }
        // MPJ Express's Waitany tests a request through its device view: one complete at the call, one later.
        final WinRequest later = w.win().rGet(one, 0, 1, MPI.LONG, right, w.disp(right, 0), 1, MPI.LONG);
        final WinRequest atCall = w.win().rPut(one, 0, 1, MPI.LONG, rank, w.disp(rank, 1), 1, MPI.LONG);
        final int first = Request.Waitany(new Request[] {later, atCall}).index;
        final int second = Request.Waitany(new Request[] {later, atCall}).index;
        if (first + second != 1 || !later.Is_null() || !atCall.Is_null())
        {
            failures.append("; Request.Waitany returned ").append(first).append(" then ").append(second);
        }
        w.win().unlockAll();
        MPI.COMM_WORLD.Barrier();
        w.free();
        final Info noLocks = new Info();
        noLocks.set("no_locks", "true");
        final Window without = open(flavour, noLocks);
        expect(failures, "no_locks lockAll", ErrorClass.ERR_RMA_SYNC, () -> without.win().lockAll(0));
        expect(failures, "no_locks rPut", ErrorClass.ERR_RMA_SYNC,
            () -> without.win().rPut(one, 0, 1, MPI.LONG, right, without.disp(right, 0), 1, MPI.LONG));
        MPI.COMM_WORLD.Barrier();
        without.free();
        report("request rules " + flavour, failures.isEmpty(), failures.toString());
    }

    private interface Call
    {
        void run();
    }

    private static void expect(final StringBuilder failures, final String what, final ErrorClass expected,
        final Call call)
    {
        try
        {
            call.run();
            failures.append("; ").append(what).append(": no error");
        }
        catch (final RmaException e)
        {
            if (e.errorClass() != expected)
            {
                failures.append("; ").append(what).append(": ").append(e.getMessage());
            }
        }
    }

    private static long[] values(final long first, final int count)
    {
        final long[] values = new long[count];
        for (int i = 0; i < count; i++)
        {
            values[i] = first + i;
        }
        return values;
    }

    private static long[] concat(final long[] a, final long[] b)
    {
        final long[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static void report(final String name, final boolean ok, final String detail)
    {
        System.out.println("rank " + rank + " " + name + (ok ? " ok" : " FAILED: " + detail));
    }
}
