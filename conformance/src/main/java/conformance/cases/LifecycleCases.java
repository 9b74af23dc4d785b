package conformance.cases;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Win;

/** Free and what it leaves behind (docs/conformance-checklist.md#free-and-lifecycle). */
public final class LifecycleCases
{
    private LifecycleCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.LIFECYCLE)
            .add("free.then-err-win", Behaviour.FREE_INVALIDATES,
                "after free, every call on the window is MPI_ERR_WIN (fence, put, sharedQuery, getName, free)",
                "MPI-4.1 §12.2.5 (free sets win to MPI_WIN_NULL); Open MPI win_*.c.in", LifecycleCases::thenErrWin)
            .add("free.memory-unusable", Behaviour.FREE_INVALIDATES,
                "after free, loads and stores through the base and through sharedQuery segments fail cleanly " +
                    "(IllegalStateException), never reach unmapped memory",
                "MPI-4.1 §12.2.5; docs/design.md#freed-windows-fail-cleanly", LifecycleCases::memoryUnusable)
            .sharedOnly(FlavourNotes.OTHERS_MEMORY)
            .add("free.with-lock-open", 2, Behaviour.FREE_EPOCH_OPEN,
                "free while the last rank holds a lock: MPI_ERR_RMA_SYNC on every rank, the window stays usable, and " +
                    "free succeeds after unlock",
                "MPI-4.1 §12.2.5; MPICH errors/rma/win_sync_free_pt; docs/design.md#collective-calls-fail-together",
                LifecycleCases::withLockOpen)
            .add("free.with-lock-all-open", Behaviour.FREE_EPOCH_OPEN,
                "free while every rank holds lockAll: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.2.5; MPICH errors/rma/win_sync_free_at", LifecycleCases::withLockAllOpen)
            .add("free.after-nosucceed-fence", Behaviour.FREE_AFTER_COMPLETION,
                "free right after fence(NOSUCCEED) that closed an epoch with puts succeeds",
                "MPI-4.1 §12.2.5; MPICH win_shared_noncontig_put", LifecycleCases::afterNosucceedFence)
            .add("free.after-fence-zero", Behaviour.FREE_AFTER_COMPLETION,
                "free after a fence(0) that completed the epoch's puts succeeds (the new epoch is empty)",
                "MPI-4.1 §12.2.5 (fence completes the involvement)", LifecycleCases::afterFenceZero)
            .add("free.rma-not-completed", Behaviour.FREE_AFTER_COMPLETION,
                "fence(0), put, then free without a closing fence: MPI_ERR_RMA_SYNC",
                "MPI-4.1 §12.2.5 (free only after the RMA involvement is complete)", LifecycleCases::rmaNotCompleted)
            .add("free.close", Behaviour.FREE_INVALIDATES,
                "try-with-resources frees the window (close = free)",
                "docs/design.md#freed-windows-fail-cleanly (Win is AutoCloseable)", LifecycleCases::close)
            .add("free.independent-windows", Behaviour.FREE_INVALIDATES,
                "freeing one of two windows leaves the other's memory and fences working",
                "MPI-4.1 §12.2.5", LifecycleCases::independentWindows)
            .add("free.repeat-no-leak", Behaviour.FREE_NO_LEAK,
                "100 allocate/free cycles leave the number of open file descriptors and /dev/shm entries unchanged",
                "docs/design.md#unnamed-shared-memory-objects; mpi4py/mpi4py#354; open-mpi/ompi#4770",
                LifecycleCases::repeatNoLeak)
            .add("free.all-zero-sizes", Behaviour.FREE_INVALIDATES,
                "a window whose sizes are all 0 is freed without error, after a fence pair",
                "MPI-4.1 §12.2.3, §12.2.5; MPICH win_zero; microsoft/Microsoft-MPI#41", LifecycleCases::allZeroSizes)
            .list();
    }

    private static void thenErrWin(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.free();
        c.check(win.isFreed(), "isFreed() is false");
        c.expectError(ErrorClass.ERR_WIN, "fence", () -> win.fence(0));
        c.expectError(ErrorClass.ERR_WIN, "put",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, c.rank(), 0, 1, MPI.LONG));
        c.expectError(ErrorClass.ERR_WIN, "sharedQuery", () -> win.sharedQuery(c.rank()));
        c.expectError(ErrorClass.ERR_WIN, "getName", win::getName);
        c.expectError(ErrorClass.ERR_WIN, "second free", win::free);
    }

    private static void memoryUnusable(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final var own = win.base();
        final var other = win.sharedQuery(c.last()).memory();
        win.free();
        c.expectThrows(IllegalStateException.class, "load from the freed base", () -> Memory.getLong(own, 0));
        c.expectThrows(IllegalStateException.class, "store to a freed queried segment",
            () -> Memory.setLong(other, 0, 1));
    }

    private static void withLockOpen(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        if (c.rank() == c.last())
        {
            win.lock(Win.LOCK_SHARED, 0, 0);
        }
        c.expectError(ErrorClass.ERR_RMA_SYNC, "free with rank " + c.last() + "'s lock open", win::free);
        c.check(!win.isFreed(), "the window was freed anyway");
        if (c.rank() == c.last())
        {
            win.unlock(0);
        }
        win.free();
    }

    private static void withLockAllOpen(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.lockAll(0);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "free inside lockAll", win::free);
        win.unlockAll();
        win.free();
    }

    private static void afterNosucceedFence(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(Win.MODE_NOPRECEDE);
        final int right = (c.rank() + 1) % c.size();
        win.put(new long[] {1}, 0, 1, MPI.LONG, right, c.disp(win, right, 0), 1, MPI.LONG);
        win.fence(Win.MODE_NOSUCCEED);
        win.free();
    }

    private static void afterFenceZero(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        final int right = (c.rank() + 1) % c.size();
        win.put(new long[] {1}, 0, 1, MPI.LONG, right, c.disp(win, right, 0), 1, MPI.LONG);
        win.fence(0);
        win.free();
    }

    private static void rmaNotCompleted(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        win.fence(0);
        win.put(new long[] {1}, 0, 1, MPI.LONG, c.rank(), c.disp(win, c.rank(), 0), 1, MPI.LONG);
        c.expectError(ErrorClass.ERR_RMA_SYNC, "free with a put not completed", win::free);
        win.fence(Win.MODE_NOSUCCEED);
        win.free();
    }

    private static void close(final CaseContext c) throws Exception
    {
        final Win kept;
        try (Win win = c.unkeptWindow(8, 8, null, c.comm()))
        {
            kept = win;
            win.fence(0);
            win.fence(Win.MODE_NOSUCCEED);
        }
        c.check(kept.isFreed(), "the window is not freed after close");
    }

    private static void independentWindows(final CaseContext c) throws Exception
    {
        final Win first = c.window(8, 8);
        final Win second = c.window(8, 8);
        first.free();
        second.fence(0);
        Memory.setLong(c.memory(second), 0, 55 + c.rank());
        second.fence(0);
        c.checkEquals(55 + c.last(), Memory.getLong(c.memoryOf(second, c.last()), 0), "value");
        second.fence(Win.MODE_NOSUCCEED);
    }

    private static void repeatNoLeak(final CaseContext c) throws Exception
    {
        c.barrier();
        final long fdsBefore = c.isRoot() ? count(Path.of("/proc/self/fd")) : 0;
        final Set<Path> shmBefore = c.isRoot() ? entries(Path.of("/dev/shm")) : Set.of();
        c.barrier();
        for (int i = 0; i < 100; i++)
        {
            c.unkeptWindow(64, 8, null, c.comm()).free();
        }
        c.barrier();
        if (c.isRoot())
        {
            // Other ranks (threads in multicore mode) may hold a descriptor or two for a moment.
            final long fdsAfter = count(Path.of("/proc/self/fd"));
            c.check(fdsAfter <= fdsBefore + 2 * c.size(), "file descriptors grew from " + fdsBefore + " to " +
                fdsAfter);
            final Set<Path> shmNew = entries(Path.of("/dev/shm"));
            shmNew.removeAll(shmBefore);
            shmNew.removeIf(p -> !p.getFileName().toString().toLowerCase().contains("kupl"));
            c.check(shmNew.isEmpty(), "new entries in /dev/shm: " + shmNew);
        }
        c.barrier();
    }

    private static void allZeroSizes(final CaseContext c) throws Exception
    {
        final Win win = c.window(0, 1);
        win.fence(0);
        win.fence(Win.MODE_NOSUCCEED);
        win.free();
    }

    private static long count(final Path directory) throws IOException
    {
        try (Stream<Path> entries = Files.list(directory))
        {
            return entries.count();
        }
    }

    private static Set<Path> entries(final Path directory) throws IOException
    {
        if (!Files.isDirectory(directory))
        {
            return new HashSet<>();
        }
        try (Stream<Path> entries = Files.list(directory))
        {
            return new HashSet<>(entries.toList());
        }
    }
}
