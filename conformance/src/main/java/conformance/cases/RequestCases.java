package conformance.cases;

import java.util.Arrays;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.Datatype;
import mpi.MPI;
import mpi.Request;
import mpi.rma.ErrorClass;
import mpi.rma.Win;
import mpi.rma.WinRequest;

/**
 * Request-based RMA: rPut, rGet, rAccumulate, rGetAccumulate and their requests
 * (docs/conformance-checklist.md#request-based-rma). Windows of longs, displacement unit 8.
 */
public final class RequestCases
{
    private static final int SLOTS = 32;

    private RequestCases()
    {
    }

    /** Every rank stores rank * 1000 + i into slot i of its own memory, then all meet: a passive-epoch put. */
    private static Win filledWindow(final CaseContext c)
    {
        final Win win = c.window(SLOTS * Long.BYTES, Long.BYTES);
        final long[] values = new long[SLOTS];
        for (int i = 0; i < SLOTS; i++)
        {
            values[i] = c.rank() * 1000L + i;
        }
        win.lock(Win.LOCK_EXCLUSIVE, c.rank(), 0);
        win.put(values, 0, SLOTS, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), SLOTS, MPI.LONG);
        win.unlock(c.rank());
        c.barrier();
        return win;
    }

    private static void checkSlots(final CaseContext c, final long[] got, final int target, final int first,
        final String what)
    {
        for (int i = 0; i < got.length; i++)
        {
            c.checkEquals(target * 1000L + first + i, got[i], what + " element " + i);
        }
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.REQUESTS)
            .add("req.rput-local-completion", 2, Behaviour.REQ_COMPLETION,
                "rank 0 rPuts 1 and 16 longs to the last rank and waits; overwriting the buffers afterwards does not " +
                    "change what the last rank finds after rank 0's unlock",
                "MPI-4.1 §12.3.5 (an rput's request completes locally); MPICH rput_local_comp",
                RequestCases::rputLocalCompletion)
            .add("req.raccumulate-local-completion", 2, Behaviour.REQ_COMPLETION,
                "every rank rAccumulates SUM into the last rank's 16 longs, waits, overwrites its buffer, unlocks: " +
                    "each long is the sum of the ranks' first values",
                "MPI-4.1 §12.3.5; MPICH racc_local_comp", RequestCases::raccumulateLocalCompletion)
            .add("req.rget-wait", Behaviour.REQ_COMPLETION,
                "in a lockAll epoch every rank rGets 1 and 20 longs from its right neighbour: after waitFor they are " +
                    "in the array",
                "MPI-4.1 §12.3.5 (an rget's request completes when the data has arrived); MPICH req_example",
                RequestCases::rgetWait)
            .add("req.rget-accumulate-old-values", Behaviour.REQ_COMPLETION,
                "rGetAccumulate(SUM) and rGetAccumulate(NO_OP) return the old values once waited for",
                "MPI-4.1 §12.3.5, §12.3.4.2", RequestCases::rgetAccumulateOldValues)
            .add("req.rget-unlock", 2, Behaviour.REQ_FLUSH_COMPLETES,
                "an rGet of 16 longs never waited for: the unlock completes it, the data is there when unlock " +
                    "returns, and the request then tests complete",
                "MPI-4.1 §12.3.5 (unlock completes request-based operations); MPICH rget-unlock",
                RequestCases::rgetUnlock)
            .add("req.rget-flush", 2, Behaviour.REQ_FLUSH_COMPLETES,
                "rGets completed by flush(target) and by flushLocalAll, never waited for: the data is there",
                "MPI-4.1 §12.3.5, §12.5.4", RequestCases::rgetFlush)
            .add("req.testall", Behaviour.REQ_MULTIPLE,
                "rGets from every rank, 2 longs each, tested with testAll until it says all are complete: every " +
                    "array holds its target's values",
                "MPI-4.1 §3.7.5, §12.3.5; MPICH rget-testall", RequestCases::testall)
            .add("req.waitany", Behaviour.REQ_MULTIPLE,
                "8 rGets to every rank in turn: waitAny returns each index once, then MPI.UNDEFINED; waitAll of " +
                    "completed and null requests returns",
                "MPI-4.1 §3.7.5 (MPI_Waitany, inactive requests), §12.3.5", RequestCases::waitany)
            .add("req.mpj-request-waitall", 2, Behaviour.REQ_MULTIPLE,
                "MPJ Express's own Request.Waitall completes an Irecv, an Isend and an rGet's request together",
                "MPI-4.1 §12.3.5 (an RMA request is a request like any other); docs/design.md#request-based-rma",
                RequestCases::mpjRequestWaitall)
            .add("req.atomic-tickets", 2, Behaviour.REQ_ATOMIC,
                "every rank takes 25 tickets from rank 0's counter with rGetAccumulate(SUM, 1) and adds 1 to every " +
                    "rank with rAccumulate, waiting with waitAll: the tickets are 0 to 25 * size - 1, each once",
                "MPI-4.1 §12.3.5, §12.7.1; MPICH reqops", RequestCases::atomicTickets)
            .add("req.derived-types", Behaviour.REQ_COMPLETION,
                "in a lockAll epoch, with Vector(4, 1, 2, LONG) at the target: rGet of the right neighbour's even " +
                    "longs 0-6, rPut into its longs 8-14, rAccumulate(SUM, 1) into its longs 9-15, then waitAll: " +
                    "each element where the type map puts it, the others unchanged",
                "MPI-4.1 §12.3.5 (the datatypes of the blocking calls), §5.1.2; docs/design.md#derived-datatypes",
                RequestCases::derivedTypes)
            .add("req.outside-epoch", Behaviour.REQ_PASSIVE_ONLY,
                "rPut, rGet, rAccumulate and rGetAccumulate before any epoch: MPI_ERR_RMA_SYNC, saying to lock",
                "MPI-4.1 §12.3.5 (only in passive-target epochs), §12.6.2", RequestCases::outsideEpoch)
            .add("req.fence-epoch", Behaviour.REQ_PASSIVE_ONLY,
                "rPut inside a fence epoch: MPI_ERR_RMA_SYNC (a put there is fine)",
                "MPI-4.1 §12.3.5 (request-based calls belong to passive target only)", RequestCases::fenceEpoch)
            .add("req.unlocked-target", 2, Behaviour.REQ_PASSIVE_ONLY,
                "with a lock on the right neighbour only, rGet from this rank: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.3.5, §12.5.3", RequestCases::unlockedTarget)
            .add("req.proc-null", Behaviour.REQ_PASSIVE_ONLY,
                "under lock(PROC_NULL), rPut and rGet to PROC_NULL return complete requests and touch nothing",
                "MPI-4.1 §12.3; MPICH rmanull; docs/design.md#proc-null-targets", RequestCases::procNull)
            .add("req.argument-errors", Behaviour.REQ_ARGUMENTS,
                "inside lockAll: a null origin is MPI_ERR_BUFFER, a target past the end MPI_ERR_RMA_RANGE, a bad " +
                    "rank MPI_ERR_RANK, a negative displacement MPI_ERR_DISP, NO_OP in rAccumulate MPI_ERR_OP",
                "MPI-4.1 §12.3.5 (the arguments of the blocking calls), §12.6.2, §9.4", RequestCases::argumentErrors)
            .notDynamic(FlavourNotes.DYNAMIC_RANGE)
            .add("req.cancel", Behaviour.REQ_ARGUMENTS,
                "Cancel of an rGet's request: MPI_ERR_REQUEST; the request still completes",
                "MPI-4.1 §3.8.4, §12.3.5", RequestCases::cancel)
            .list();
    }

    private static void rputLocalCompletion(final CaseContext c) throws Exception
    {
        final Win win = c.window(17 * Long.BYTES, Long.BYTES);
        if (c.isRoot())
        {
            final long[] one = {41};
            final long[] sixteen = new long[16];
            Arrays.fill(sixteen, 42);
            win.lock(Win.LOCK_EXCLUSIVE, c.last(), 0);
            final WinRequest a = win.rPut(one, 0, 1, MPI.LONG, c.last(), c.disp(win, c.last(), 0), 1,
                MPI.LONG);
            final WinRequest b = win.rPut(sixteen, 0, 16, MPI.LONG, c.last(), c.disp(win, c.last(), 1),
                16, MPI.LONG);
            a.waitFor();
            b.waitFor();
            one[0] = -1;
            Arrays.fill(sixteen, -1);
            win.unlock(c.last());
        }
        c.barrier();
        final var memory = c.memoryOf(win, c.last());
        c.checkEquals(41, Memory.getLong(memory, 0), "element 0");
        for (int i = 1; i <= 16; i++)
        {
            c.checkEquals(42, Memory.getLong(memory, i), "element " + i);
        }
    }

    private static void raccumulateLocalCompletion(final CaseContext c) throws Exception
    {
        final Win win = c.window(16 * Long.BYTES, Long.BYTES);
        final long[] operand = new long[16];
        Arrays.fill(operand, c.rank() + 1);
        win.lock(Win.LOCK_SHARED, c.last(), 0);
        win.rAccumulate(operand, 0, 16, MPI.LONG, c.last(), c.disp(win, c.last(), 0), 16, MPI.LONG,
            MPI.SUM).waitFor();
        Arrays.fill(operand, 1000);
        win.unlock(c.last());
        c.barrier();
        final var memory = c.memoryOf(win, c.last());
        final long expected = (long)c.size() * (c.size() + 1) / 2;
        for (int i = 0; i < 16; i++)
        {
            c.checkEquals(expected, Memory.getLong(memory, i), "element " + i);
        }
    }

    private static void rgetWait(final CaseContext c) throws Exception
    {
        final Win win = filledWindow(c);
        final int right = (c.rank() + 1) % c.size();
        final long[] one = new long[1];
        final long[] twenty = new long[20];
        win.lockAll(0);
        win.rGet(one, 0, 1, MPI.LONG, right, c.disp(win, right, 3), 1, MPI.LONG).waitFor();
        win.rGet(twenty, 0, 20, MPI.LONG, right, c.disp(win, right, 10), 20, MPI.LONG).waitFor();
        checkSlots(c, one, right, 3, "one long");
        checkSlots(c, twenty, right, 10, "twenty longs");
        win.unlockAll();
    }

    private static void rgetAccumulateOldValues(final CaseContext c) throws Exception
    {
        final Win win = filledWindow(c);
        final int right = (c.rank() + 1) % c.size();
        final long[] old = new long[4];
        final long[] after = new long[4];
        win.lock(Win.LOCK_EXCLUSIVE, right, 0);
        final long[] ones = {1, 1, 1, 1};
        win.rGetAccumulate(ones, 0, 4, MPI.LONG, old, 0, 4, MPI.LONG, right, c.disp(win, right, 20), 4,
            MPI.LONG, MPI.SUM)
            .waitFor();
        win.rGetAccumulate(null, 0, 0, MPI.LONG, after, 0, 4, MPI.LONG, right, c.disp(win, right, 20), 4,
            MPI.LONG, Win.NO_OP)
            .waitFor();
        win.unlock(right);
        checkSlots(c, old, right, 20, "old value");
        for (int i = 0; i < 4; i++)
        {
            c.checkEquals(right * 1000L + 20 + i + 1, after[i], "after the sum, element " + i);
        }
    }

    private static void rgetUnlock(final CaseContext c) throws Exception
    {
        final Win win = filledWindow(c);
        final int right = (c.rank() + 1) % c.size();
        final long[] got = new long[16];
        win.lock(Win.LOCK_SHARED, right, 0);
        final WinRequest request = win.rGet(got, 0, 16, MPI.LONG, right, c.disp(win, right, 4), 16,
            MPI.LONG);
        win.unlock(right);
        checkSlots(c, got, right, 4, "after unlock");
        c.check(request.test(), "the request does not test complete after the unlock");
    }

    private static void rgetFlush(final CaseContext c) throws Exception
    {
        final Win win = filledWindow(c);
        final int right = (c.rank() + 1) % c.size();
        final long[] first = new long[8];
        final long[] second = new long[8];
        win.lockAll(0);
        win.rGet(first, 0, 8, MPI.LONG, right, c.disp(win, right, 0), 8, MPI.LONG);
        win.flush(right);
        checkSlots(c, first, right, 0, "after flush");
        win.rGet(second, 0, 8, MPI.LONG, right, c.disp(win, right, 8), 8, MPI.LONG);
        win.flushLocalAll();
        checkSlots(c, second, right, 8, "after flushLocalAll");
        win.unlockAll();
    }

    private static void testall(final CaseContext c) throws Exception
    {
        final Win win = filledWindow(c);
        final long[][] got = new long[c.size()][2];
        final WinRequest[] requests = new WinRequest[c.size()];
        win.lockAll(0);
        for (int target = 0; target < c.size(); target++)
        {
            requests[target] = win.rGet(got[target], 0, 2, MPI.LONG, target, c.disp(win, target, 6), 2,
                MPI.LONG);
        }
        while (!WinRequest.testAll(requests))
        {
            Thread.yield();
        }
        for (int target = 0; target < c.size(); target++)
        {
            checkSlots(c, got[target], target, 6, "from rank " + target);
            c.check(requests[target].Is_null(), "request " + target + " is still active");
        }
        win.unlockAll();
    }

    private static void waitany(final CaseContext c) throws Exception
    {
        final Win win = filledWindow(c);
        final long[][] got = new long[8][3];
        final WinRequest[] requests = new WinRequest[8];
        win.lockAll(0);
        for (int i = 0; i < requests.length; i++)
        {
            requests[i] = win.rGet(got[i], 0, 3, MPI.LONG, (c.rank() + i) % c.size(), c.disp(win,
                (c.rank() + i) % c.size(), i), 3, MPI.LONG);
        }
        final boolean[] seen = new boolean[requests.length];
        for (int n = 0; n < requests.length; n++)
        {
            final int index = WinRequest.waitAny(requests);
            c.check(index >= 0 && index < requests.length && !seen[index], "waitAny returned " + index);
            if (index >= 0 && index < requests.length)
            {
                seen[index] = true;
            }
        }
        c.checkEquals(MPI.UNDEFINED, WinRequest.waitAny(requests), "waitAny with no active request");
        WinRequest.waitAll(requests[0], null, requests[1]);
        for (int i = 0; i < requests.length; i++)
        {
            checkSlots(c, got[i], (c.rank() + i) % c.size(), i, "request " + i);
        }
        win.unlockAll();
    }

    private static void mpjRequestWaitall(final CaseContext c) throws Exception
    {
        final Win win = filledWindow(c);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        final long[] got = new long[2];
        final long[] received = new long[1];
        win.lockAll(0);
        final WinRequest get = win.rGet(got, 0, 2, MPI.LONG, right, c.disp(win, right, 1), 2, MPI.LONG);
        final Request irecv = c.comm().Irecv(received, 0, 1, MPI.LONG, left, 11);
        final Request isend = c.comm().Isend(new long[] {c.rank()}, 0, 1, MPI.LONG, right, 11);
        Request.Waitall(new Request[] {irecv, get, isend});
        checkSlots(c, got, right, 1, "rGet");
        c.checkEquals(left, received[0], "Irecv");
        c.check(get.Is_null(), "the WinRequest is still active after Request.Waitall");
        win.unlockAll();
    }

    private static void atomicTickets(final CaseContext c) throws Exception
    {
        final int rounds = 25;
        final Win win = c.window(2 * Long.BYTES, Long.BYTES);
        final long[] tickets = new long[rounds];
        final WinRequest[] requests = new WinRequest[rounds * (c.size() + 1)];
        int next = 0;
        win.lockAll(0);
        for (int round = 0; round < rounds; round++)
        {
            requests[next++] = win.rGetAccumulate(new long[] {1}, 0, 1, MPI.LONG, tickets, round, 1,
                MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG, MPI.SUM);
            for (int target = 0; target < c.size(); target++)
            {
                requests[next++] = win.rAccumulate(new long[] {1}, 0, 1, MPI.LONG, target, c.disp(win,
                    target, 1), 1, MPI.LONG,
                    MPI.SUM);
            }
        }
        WinRequest.waitAll(requests);
        win.unlockAll();
        final long[] all = new long[rounds * c.size()];
        c.comm().Allgather(tickets, 0, rounds, MPI.LONG, all, 0, rounds, MPI.LONG);
        Arrays.sort(all);
        for (int i = 0; i < all.length; i++)
        {
            c.checkEquals(i, all[i], "ticket " + i + " of the sorted tickets");
        }
        c.barrier();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.checkEquals((long)rounds * c.size(), Memory.passiveLong(c, win, c.rank(), 1), "own counter");
        win.unlock(c.rank());
    }

    private static void derivedTypes(final CaseContext c) throws Exception
    {
        final Win win = filledWindow(c);
        final Datatype every2 = Datatype.Vector(4, 1, 2, MPI.LONG);
        every2.Commit();
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        final long[] got = new long[4];
        win.lockAll(0);
        WinRequest.waitAll(
            win.rGet(got, 0, 4, MPI.LONG, right, c.disp(win, right, 0), 1, every2),
            win.rPut(new long[] {-1, -2, -3, -4}, 0, 4, MPI.LONG, right, c.disp(win, right, 8), 1, every2),
            win.rAccumulate(new long[] {1, 1, 1, 1}, 0, 4, MPI.LONG, right, c.disp(win, right, 9), 1, every2,
                MPI.SUM));
        win.unlockAll();
        for (int k = 0; k < 4; k++)
        {
            c.checkEquals(right * 1000L + 2 * k, got[k], "got element " + k);
        }
        c.barrier();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        for (int i = 0; i < SLOTS; i++)
        {
            final long expected = i >= 8 && i < 16 ? (i % 2 == 0 ? -(i - 8) / 2 - 1 : c.rank() * 1000L + i + 1) :
                c.rank() * 1000L + i;
            c.checkEquals(expected, Memory.getLong(c.memory(win), i), "own long " + i + " (left neighbour " +
                left + " wrote 8-15)");
        }
        win.unlock(c.rank());
    }

    private static void outsideEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final long[] one = new long[1];
        final var e = c.expectError(ErrorClass.ERR_RMA_SYNC, "rPut",
            () -> win.rPut(one, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG));
        c.check(e == null || e.getMessage().contains("win.lockAll(0)"), "the message does not say to " +
            "lock: " + (e == null ? "" : e.getMessage()));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "rGet",
            () -> win.rGet(one, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "rAccumulate",
            () -> win.rAccumulate(one, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG,
                MPI.SUM));
        c.expectError(ErrorClass.ERR_RMA_SYNC, "rGetAccumulate", () -> win.rGetAccumulate(one, 0, 1,
            MPI.LONG, new long[1], 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG,
                MPI.SUM));
    }

    private static void fenceEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "rPut in a fence epoch",
            () -> win.rPut(new long[1], 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG));
        win.put(new long[] {5}, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG);
        win.fence(Win.MODE_NOSUCCEED);
        c.checkEquals(5, Memory.getLong(c.memory(win), 0), "the put");
    }

    private static void unlockedTarget(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final int right = (c.rank() + 1) % c.size();
        win.lock(Win.LOCK_SHARED, right, 0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "rGet from a rank not locked",
            () -> win.rGet(new long[1], 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG));
        win.unlock(right);
    }

    private static void procNull(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final long[] got = {77};
        win.lock(Win.LOCK_SHARED, MPI.PROC_NULL, 0);
        c.check(win.rPut(new long[] {1}, 0, 1, MPI.LONG, MPI.PROC_NULL, c.disp(win, MPI.PROC_NULL, 0), 1,
            MPI.LONG).test(),
            "rPut's request is not complete");
        c.check(win.rGet(got, 0, 1, MPI.LONG, MPI.PROC_NULL, c.disp(win, MPI.PROC_NULL, 0), 1,
            MPI.LONG).test(),
            "rGet's request is not complete");
        win.unlock(MPI.PROC_NULL);
        c.checkEquals(77, got[0], "the origin array");
    }

    private static void argumentErrors(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final long[] one = new long[1];
        win.lockAll(0);
        c.expectError(ErrorClass.ERR_BUFFER, "rPut from null",
            () -> win.rPut(null, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG));
        c.expectError(ErrorClass.ERR_RMA_RANGE, "rGet past the end",
            () -> win.rGet(one, 0, 1, MPI.LONG, c.rank(), 1, 1, MPI.LONG));
        c.expectError(ErrorClass.ERR_RANK, "rGet from rank size",
            () -> win.rGet(one, 0, 1, MPI.LONG, c.size(), 0, 1, MPI.LONG));
        c.expectError(ErrorClass.ERR_DISP, "rPut at -1",
            () -> win.rPut(one, 0, 1, MPI.LONG, c.rank(), -1, 1, MPI.LONG));
        c.expectError(ErrorClass.ERR_OP, "rAccumulate(NO_OP)",
            () -> win.rAccumulate(one, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG,
                Win.NO_OP));
        win.unlockAll();
    }

    private static void cancel(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lockAll(0);
        final WinRequest request = win.rGet(new long[1], 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(),
            0), 1, MPI.LONG);
        c.expectError(ErrorClass.ERR_REQUEST, "Cancel", request::Cancel);
        request.waitFor();
        win.unlockAll();
    }
}
