package conformance.cases;

import java.util.Arrays;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.Win;

/**
 * Passive target on shared windows, with load/store
 * (docs/conformance-checklist.md#lock-lockall-flush-sync-with-loadstore).
 */
public final class PassiveCases
{
    private PassiveCases()
    {
    }

    /**
     * Rank 0 opens an epoch on its own segment with {@code acquire}, holds it for 200 ms and stores 1 just
     * before closing it with {@code release}; the last rank's exclusive lock on rank 0 must wait for that
     * and then load 1.
     */
    private static void holdThenExpectExclusiveLockerToWait(final CaseContext c, final Win win, final Runnable acquire,
        final Runnable release)
    {
        holdThenExpectLockerToWait(c, win, acquire, release, () -> win.lock(Win.LOCK_EXCLUSIVE, 0, 0),
            () -> win.unlock(0));
    }

    /** As {@link #holdThenExpectExclusiveLockerToWait}, the last rank opening its epoch with {@code lock}. */
    private static void holdThenExpectLockerToWait(final CaseContext c, final Win win, final Runnable acquire,
        final Runnable release, final Runnable lock, final Runnable unlock)
    {
        if (c.isRoot())
        {
            acquire.run();
        }
        c.barrier();
        if (c.isRoot())
        {
            CaseContext.sleepMs(200);
            Memory.setLong(c.memory(win), 0, 1);
            release.run();
        }
        else if (c.rank() == c.last())
        {
            lock.run();
            c.checkEquals(1, Memory.passiveLong(c, win, 0, 0), "value seen under the lock");
            unlock.run();
        }
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.PASSIVE)
            .add("lock.exclusive-excludes", 2, Behaviour.LOCK_EXCLUSION,
                "rank 0 holds an exclusive lock on itself for 200 ms and stores 1 just before unlocking; the last " +
                    "rank's exclusive lock on rank 0 returns only after that and loads 1",
                "MPI-4.1 §12.5.3 (lock excludes load/store too; lock blocks until acquired), Annex B 4.0 item 28; " +
                    "MPICH lockcontention", PassiveCases::exclusiveExcludes)
            .add("lock.shared-excludes-exclusive", 2, Behaviour.LOCK_EXCLUSION,
                "rank 0 holds a shared lock on itself for 200 ms, storing 1 before unlocking; the last rank's " +
                    "exclusive lock waits for it",
                "MPI-4.1 §12.5.3; MPICH lockcontention2", PassiveCases::sharedExcludesExclusive)
            .add("lock.lock-all-excludes-exclusive", 2, Behaviour.LOCK_EXCLUSION,
                "rank 0 holds lockAll for 200 ms and stores 1 into its own segment before unlockAll; the last rank's " +
                    "exclusive lock on rank 0 waits for it and loads 1",
                "MPI-4.1 §12.5.3 (lock_all is a shared lock on every rank)", PassiveCases::lockAllExcludesExclusive)
            .add("lock.exclusive-excludes-shared", 2, Behaviour.LOCK_EXCLUSION,
                "rank 0 holds an exclusive lock on itself for 200 ms, storing 1 before unlocking; the last rank's " +
                    "shared lock on rank 0 returns only after that and reads 1",
                "MPI-4.1 §12.5.3 (an exclusive lock excludes shared ones); MPICH lockcontention2",
                PassiveCases::exclusiveExcludesShared)
            .add("lock.exclusive-excludes-lock-all", 2, Behaviour.LOCK_EXCLUSION,
                "rank 0 holds an exclusive lock on itself for 200 ms, storing 1 before unlocking; the last rank's " +
                    "lockAll returns only after that and reads 1 from rank 0",
                "MPI-4.1 §12.5.3 (lock_all takes a shared lock on every process); MPICH lockall_dt",
                PassiveCases::exclusiveExcludesLockAll)
            .add("lock.exclusive-read-modify-write", 2, Behaviour.LOCK_EXCLUSION,
                "every rank 10 times locks rank 0 exclusively, gets its counter, flushes, pauses 1 ms, puts the " +
                    "counter plus one and unlocks: no increment is lost (10 * size)",
                "MPI-4.1 §12.5.3 (an exclusive lock serialises the epochs); MPICH lockcontention, lock_contention_dt",
                PassiveCases::exclusiveReadModifyWrite)
            .add("lock.shared-coexist", 2, Behaviour.LOCK_EXCLUSION,
                "every rank holds a shared lock on rank 0 at the same time (they meet in a barrier while holding it)",
                "MPI-4.1 §12.5.3 (shared locks may be held concurrently)", PassiveCases::sharedCoexist)
            .add("lock.empty-epochs", Behaviour.LOCK_EPOCHS,
                "lock/unlock with no operations, exclusive then shared, on every rank in turn",
                "MPI-4.1 §12.5.3; MPICH locknull", PassiveCases::emptyEpochs)
            .add("lock.several-targets", Behaviour.LOCK_EPOCHS,
                "shared locks on every rank at once, a put to each, then unlock in reverse order: the values are there",
                "MPI-4.1 §12.5.3; MPICH lock_nested", PassiveCases::severalTargets)
            .add("lock.put-unlock-visible", 2, Behaviour.LOCK_COMPLETION,
                "rank 0 puts to the last rank under an exclusive lock and unlocks; after a barrier the last rank " +
                    "locks itself and loads the value",
                "MPI-4.1 §12.5.3 (unlock completes at the target); MPICH win_shared_put_flush_load",
                PassiveCases::putUnlockVisible)
            .add("lock.lock-all-sync-barrier-sync", Behaviour.LOCK_SYNC,
                "lockAll(NOCHECK); each rank stores into its own segment; sync, barrier, sync; every rank loads every " +
                    "segment",
                "MPI-4.1 §12.7 (advice to users), §12.8 shared-memory example; MPICH win_shared",
                PassiveCases::lockAllSyncBarrierSync)
            .sharedOnly(FlavourNotes.UNIFIED)
            .add("lock.flush-then-third-party", 3, Behaviour.LOCK_COMPLETION,
                "rank 0 puts to rank 1 and flushes, then messages rank 2; rank 2 syncs and loads rank 1's segment: " +
                    "it sees the value",
                "MPI-4.1 §12.5.4 (flush completes at the target); MPICH win_shared_put_flush_load",
                PassiveCases::flushThenThirdParty)
            .add("lock.accumulate-flush-then-third-party", 3, Behaviour.LOCK_COMPLETION,
                "as above with accumulate(REPLACE), fetchAndOp(REPLACE) and compareAndSwap: the fetching calls return " +
                    "the old value, the checker loads the new one",
                "MPI-4.1 §12.5.4; MPICH win_shared_acc/fop/cas_flush_load", PassiveCases::accumulateFlushThenThirdParty)
            .add("lock.flush-all-empty", Behaviour.LOCK_COMPLETION,
                "flushAll and flush(own rank) in an otherwise empty lockAll epoch succeed",
                "MPI-4.1 §12.5.4; MPICH flush", PassiveCases::flushAllEmpty)
            .add("lock.contended-puts", 2, Behaviour.LOCK_EXCLUSION,
                "every rank puts 20 single longs into its own region of every rank, each put in an exclusive lock " +
                    "epoch of its own, all ranks at once: after a barrier every region of every rank holds its " +
                    "origin's values",
                "MPI-4.1 §12.5.3 (exclusive epochs queue, and each unlock completes its put); MPICH contention_put",
                PassiveCases::contendedPuts)
            .add("lock.nocheck-exclusive", 2, Behaviour.LOCK_NOCHECK,
                "the ranks take turns (a barrier between turns): each locks rank 0 exclusively with MODE_NOCHECK, " +
                    "puts rank + 1 into its slot and gets the previous turn's slot, then unlocks: the get returns the " +
                    "previous rank's put, and rank 0 finally holds every slot",
                "MPI-4.1 §12.5.5 (MODE_NOCHECK: no lock is taken, the epoch still completes); MPICH lockopts, test4",
                PassiveCases::nocheckExclusive)
            .add("lock.lock-all-nocheck", Behaviour.LOCK_NOCHECK,
                "every rank opens lockAll(MODE_NOCHECK) (shared locks only, so none conflicts), puts 100 * rank + t " +
                    "into its slot of every rank t, flushAll, barrier, then gets its right neighbour's slot of every " +
                    "rank: each holds what the neighbour put",
                "MPI-4.1 §12.5.3, §12.5.5; MPICH lockall_dt, lockopts", PassiveCases::lockAllNocheck)
            .add("lock.put-flush-local-reuse", 2, Behaviour.RMA_FLUSH_LOCAL,
                "rank 0 puts 16 longs of 7 and one long of 5 to the last rank, calls flushLocal, overwrites both " +
                    "buffers with -1 and puts them to other slots: after the unlock the last rank has 7s and 5 where " +
                    "the first puts went and -1 where the second did",
                "MPI-4.1 §12.5.4 (flush_local: the origin buffers may be reused); MPICH flush (flush vs flush_local)",
                PassiveCases::putFlushLocalReuse)
            .add("lock.flush-all-every-target", 2, Behaviour.LOCK_COMPLETION,
                "rank 0 puts 1000 + t to every rank t in a lockAll epoch, flushAll, then messages each: each rank " +
                    "locks itself and finds its value (flushAll completed the puts at every target)",
                "MPI-4.1 §12.5.4 (flush_all completes at all targets); MPICH flush", PassiveCases::flushAllEveryTarget)
            .add("lock.lock-all-not-collective", 2, Behaviour.LOCK_EPOCHS,
                "only rank 0 calls lockAll/unlockAll (and puts to every rank); the others are not involved and nobody waits",
                "MPI-4.1 §12.5.3 (lock_all is not collective)", PassiveCases::lockAllNotCollective)
            .add("lock.proc-null", Behaviour.RMA_PROC_NULL,
                "lock(PROC_NULL), put to PROC_NULL, flush(PROC_NULL), unlock(PROC_NULL): all succeed and do nothing",
                "MPI-4.1 §12.3; MPICH rmanull; docs/design.md#proc-null-targets", PassiveCases::procNull)
            .add("lock.sync-outside-epoch", Behaviour.LOCK_SYNC,
                "sync() outside any passive-target epoch is allowed (a memory barrier)",
                "MPI-4.1 §12.5.4; mpi-forum/mpi-issues#49; docs/design.md#sync-outside-passive-epochs",
                PassiveCases::syncOutsideEpoch)
            .add("lock.exclusive-self-load-store", 2, Behaviour.LOCK_EXCLUSION,
                "each rank in turn increments rank 0's long by load/store under an exclusive lock, 100 times: " +
                    "the total is 100 * size",
                "MPI-4.1 §12.5.3 (exclusive lock protects load/store on shared windows); MPICH mutex_bench_shared",
                PassiveCases::exclusiveSelfLoadStore)
            .sharedOnly(FlavourNotes.UNIFIED)
            .list();
    }

    private static void exclusiveExcludes(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        win.fence(Win.MODE_NOSUCCEED);
        holdThenExpectExclusiveLockerToWait(c, win, () -> win.lock(Win.LOCK_EXCLUSIVE, 0, 0),
            () -> win.unlock(0));
    }

    private static void sharedExcludesExclusive(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        holdThenExpectExclusiveLockerToWait(c, win, () -> win.lock(Win.LOCK_SHARED, 0, 0),
            () -> win.unlock(0));
    }

    private static void lockAllExcludesExclusive(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        holdThenExpectExclusiveLockerToWait(c, win, () -> win.lockAll(0), win::unlockAll);
    }

    private static void exclusiveExcludesShared(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        holdThenExpectLockerToWait(c, win, () -> win.lock(Win.LOCK_EXCLUSIVE, 0, 0), () -> win.unlock(0),
            () -> win.lock(Win.LOCK_SHARED, 0, 0), () -> win.unlock(0));
    }

    private static void exclusiveExcludesLockAll(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        holdThenExpectLockerToWait(c, win, () -> win.lock(Win.LOCK_EXCLUSIVE, 0, 0), () -> win.unlock(0),
            () -> win.lockAll(0), win::unlockAll);
    }

    private static void exclusiveReadModifyWrite(final CaseContext c) throws Exception
    {
        final int n = 10;
        final Win win = c.window(8, 8);
        final long[] value = new long[1];
        for (int i = 0; i < n; i++)
        {
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            win.get(value, 0, 1, MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG);
            win.flush(0);
            CaseContext.sleepMs(1);
            win.put(new long[] {value[0] + 1}, 0, 1, MPI.LONG, 0, c.disp(win, 0, 0), 1, MPI.LONG);
            win.unlock(0);
        }
        c.barrier();
        win.lock(Win.LOCK_SHARED, 0, 0);
        c.checkEquals((long)n * c.size(), Memory.passiveLong(c, win, 0, 0), "counter");
        win.unlock(0);
    }

    private static void sharedCoexist(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lock(Win.LOCK_SHARED, 0, 0);
        c.barrier();
        win.unlock(0);
    }

    private static void emptyEpochs(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        for (int r = 0; r < c.size(); r++)
        {
            win.lock(Win.LOCK_EXCLUSIVE, r, 0);
            win.unlock(r);
            win.lock(Win.LOCK_SHARED, r, 0);
            win.unlock(r);
        }
    }

    private static void severalTargets(final CaseContext c) throws Exception
    {
        final Win win = c.window(8L * c.size(), 8);
        for (int r = 0; r < c.size(); r++)
        {
            win.lock(Win.LOCK_SHARED, r, 0);
        }
        for (int r = 0; r < c.size(); r++)
        {
            win.put(new long[] {c.rank() + 1}, 0, 1, MPI.LONG, r, c.disp(win, r, c.rank()), 1, MPI.LONG);
        }
        for (int r = c.size() - 1; r >= 0; r--)
        {
            win.unlock(r);
        }
        c.barrier();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        for (int r = 0; r < c.size(); r++)
        {
            c.checkEquals(r + 1, Memory.getLong(c.memory(win), r), "slot of rank " + r);
        }
        win.unlock(c.rank());
    }

    private static void putUnlockVisible(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        if (c.isRoot())
        {
            win.lock(Win.LOCK_EXCLUSIVE, c.last(), 0);
            win.put(new long[] {987}, 0, 1, MPI.LONG, c.last(), c.disp(win, c.last(), 0), 1, MPI.LONG);
            win.unlock(c.last());
        }
        c.barrier();
        if (c.rank() == c.last())
        {
            win.lock(Win.LOCK_SHARED, c.last(), 0);
            c.checkEquals(987, Memory.getLong(c.memory(win), 0), "value");
            win.unlock(c.last());
        }
    }

    private static void lockAllSyncBarrierSync(final CaseContext c) throws Exception
    {
        final Win win = c.window(40, 4);
        win.lockAll(Win.MODE_NOCHECK);
        for (int j = 0; j < 10; j++)
        {
            Memory.setInt(win.base(), j, c.rank() * 10 + j);
        }
        win.sync();
        c.barrier();
        win.sync();
        for (int r = 0; r < c.size(); r++)
        {
            for (int j = 0; j < 10; j++)
            {
                c.checkEquals(r * 10 + j, Memory.getInt(win.sharedQuery(r).memory(), j), "rank " + r + "[" + j + "]");
            }
        }
        win.unlockAll();
    }

    private static void flushThenThirdParty(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lockAll(0);
        if (c.isRoot())
        {
            win.put(new long[] {4711}, 0, 1, MPI.LONG, 1, c.disp(win, 1, 0), 1, MPI.LONG);
            win.flush(1);
            c.send(1, 2);
        }
        else if (c.rank() == 2)
        {
            c.receive(0);
            win.sync();
            c.checkEquals(4711, Memory.passiveLong(c, win, 1, 0), "value at rank 1");
        }
        win.unlockAll();
    }

    private static void accumulateFlushThenThirdParty(final CaseContext c) throws Exception
    {
        final Win win = c.window(24, 8);
        win.lockAll(0);
        if (c.isRoot())
        {
            final long[] old = new long[1];
            win.accumulate(new long[] {1}, 0, 1, MPI.LONG, 1, c.disp(win, 1, 0), 1, MPI.LONG, Win.REPLACE);
            win.fetchAndOp(new long[] {2}, 0, old, 0, MPI.LONG, 1, c.disp(win, 1, 1), Win.REPLACE);
            c.checkEquals(0, old[0], "fetchAndOp's old value");
            win.compareAndSwap(new long[] {3}, 0, new long[] {0}, 0, old, 0, MPI.LONG, 1,
                c.disp(win, 1, 2));
            c.checkEquals(0, old[0], "compareAndSwap's old value");
            win.flush(1);
            c.send(1, 2);
        }
        else if (c.rank() == 2)
        {
            c.receive(0);
            win.sync();
            for (int i = 0; i < 3; i++)
            {
                c.checkEquals(i + 1, Memory.passiveLong(c, win, 1, i), "element " + i);
            }
        }
        win.unlockAll();
    }

    private static void flushAllEmpty(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lockAll(0);
        win.flushAll();
        win.flush(c.rank());
        win.flushLocalAll();
        win.flushLocal(c.rank());
        win.unlockAll();
    }

    private static void contendedPuts(final CaseContext c) throws Exception
    {
        final int n = 20;
        final Win win = c.window(8L * n * c.size(), 8);
        for (int t = 0; t < c.size(); t++)
        {
            final int target = (c.rank() + t) % c.size();
            for (int j = 0; j < n; j++)
            {
                win.lock(Win.LOCK_EXCLUSIVE, target, 0);
                win.put(new long[] {1000L * (c.rank() + 1) + j}, 0, 1, MPI.LONG, target,
                    c.disp(win, target, (long)n * c.rank() + j), 1, MPI.LONG);
                win.unlock(target);
            }
        }
        c.barrier();
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        for (int r = 0; r < c.size(); r++)
        {
            for (int j = 0; j < n; j++)
            {
                if (Memory.getLong(c.memory(win), (long)n * r + j) != 1000L * (r + 1) + j)
                {
                    c.fail("region of rank " + r + ", element " + j + ": " +
                        Memory.getLong(c.memory(win), (long)n * r + j));
                    break;
                }
            }
        }
        win.unlock(c.rank());
    }

    private static void nocheckExclusive(final CaseContext c) throws Exception
    {
        final Win win = c.window(8L * c.size(), 8);
        for (int turn = 0; turn < c.size(); turn++)
        {
            if (c.rank() == turn)
            {
                final long[] previous = {-1};
                win.lock(Win.LOCK_EXCLUSIVE, 0, Win.MODE_NOCHECK);
                win.put(new long[] {turn + 1}, 0, 1, MPI.LONG, 0, c.disp(win, 0, turn), 1, MPI.LONG);
                if (turn > 0)
                {
                    win.get(previous, 0, 1, MPI.LONG, 0, c.disp(win, 0, turn - 1), 1, MPI.LONG);
                }
                win.unlock(0);
                if (turn > 0)
                {
                    c.checkEquals(turn, previous[0], "slot " + (turn - 1) + " of rank 0");
                }
            }
            c.barrier();
        }
        win.lock(Win.LOCK_SHARED, 0, 0);
        for (int r = 0; r < c.size(); r++)
        {
            c.checkEquals(r + 1, Memory.passiveLong(c, win, 0, r), "slot " + r + " of rank 0");
        }
        win.unlock(0);
    }

    private static void lockAllNocheck(final CaseContext c) throws Exception
    {
        final Win win = c.window(8L * c.size(), 8);
        final int right = (c.rank() + 1) % c.size();
        win.lockAll(Win.MODE_NOCHECK);
        for (int t = 0; t < c.size(); t++)
        {
            win.put(new long[] {100L * c.rank() + t}, 0, 1, MPI.LONG, t, c.disp(win, t, c.rank()), 1,
                MPI.LONG);
        }
        win.flushAll();
        c.barrier();
        final long[] got = new long[c.size()];
        for (int t = 0; t < c.size(); t++)
        {
            win.get(got, t, 1, MPI.LONG, t, c.disp(win, t, right), 1, MPI.LONG);
        }
        win.flushAll();
        win.unlockAll();
        for (int t = 0; t < c.size(); t++)
        {
            c.checkEquals(100L * right + t, got[t], "slot " + right + " of rank " + t);
        }
    }

    private static void putFlushLocalReuse(final CaseContext c) throws Exception
    {
        final Win win = c.window(34 * Long.BYTES, Long.BYTES);
        if (c.isRoot())
        {
            final int target = c.last();
            final long[] sixteen = new long[16];
            final long[] one = {5};
            Arrays.fill(sixteen, 7);
            win.lock(Win.LOCK_SHARED, target, 0);
            win.put(sixteen, 0, 16, MPI.LONG, target, c.disp(win, target, 0), 16, MPI.LONG);
            win.put(one, 0, 1, MPI.LONG, target, c.disp(win, target, 16), 1, MPI.LONG);
            win.flushLocal(target);
            Arrays.fill(sixteen, -1);
            one[0] = -1;
            win.put(sixteen, 0, 16, MPI.LONG, target, c.disp(win, target, 17), 16, MPI.LONG);
            win.put(one, 0, 1, MPI.LONG, target, c.disp(win, target, 33), 1, MPI.LONG);
            win.unlock(target);
        }
        c.barrier();
        final var memory = c.memoryOf(win, c.last());
        for (int i = 0; i < 34; i++)
        {
            final long expected = i < 16 ? 7 : i == 16 ? 5 : -1;
            c.checkEquals(expected, Memory.getLong(memory, i), "long " + i + " of the last rank");
        }
    }

    private static void flushAllEveryTarget(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        if (c.isRoot())
        {
            win.lockAll(0);
            for (int t = 0; t < c.size(); t++)
            {
                win.put(new long[] {1000 + t}, 0, 1, MPI.LONG, t, c.disp(win, t, 0), 1, MPI.LONG);
            }
            win.flushAll();
            for (int t = 1; t < c.size(); t++)
            {
                c.send(1, t);
            }
            win.unlockAll();
        }
        else
        {
            c.receive(0);
        }
        win.lock(Win.LOCK_SHARED, c.rank(), 0);
        c.checkEquals(1000 + c.rank(), Memory.passiveLong(c, win, c.rank(), 0), "own value");
        win.unlock(c.rank());
    }

    private static void lockAllNotCollective(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        if (c.isRoot())
        {
            win.lockAll(0);
            for (int r = 0; r < c.size(); r++)
            {
                win.put(new long[] {9}, 0, 1, MPI.LONG, r, c.disp(win, r, 0), 1, MPI.LONG);
            }
            win.unlockAll();
        }
    }

    private static void procNull(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lock(Win.LOCK_EXCLUSIVE, MPI.PROC_NULL, 0);
        win.put(new long[] {1}, 0, 1, MPI.LONG, MPI.PROC_NULL, 0, 1, MPI.LONG);
        win.flush(MPI.PROC_NULL);
        win.unlock(MPI.PROC_NULL);
        c.checkEquals(0, Memory.getLong(c.memory(win), 0), "own segment");
    }

    private static void syncOutsideEpoch(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.sync();
    }

    private static void exclusiveSelfLoadStore(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final var target = win.sharedQuery(0).memory();
        for (int i = 0; i < 100; i++)
        {
            win.lock(Win.LOCK_EXCLUSIVE, 0, 0);
            Memory.setLong(target, 0, Memory.getLong(target, 0) + 1);
            win.unlock(0);
        }
        c.barrier();
        win.lock(Win.LOCK_SHARED, 0, 0);
        c.checkEquals(100L * c.size(), Memory.getLong(target, 0), "total");
        win.unlock(0);
    }
}
