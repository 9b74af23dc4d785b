package kupl;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.BitSet;

/**
 * The few Linux calls the JDK has no API for, through the FFM linker: creating unnamed
 * shared-memory files ({@code O_TMPFILE}, {@code memfd_create}), reserving their pages
 * ({@code fallocate}, so that a full tmpfs is an error at allocation instead of a SIGBUS at
 * first touch), mapping them, binding them to a NUMA node ({@code mbind}), sleeping on a
 * shared word ({@code futex}) and binding a thread to a CPU ({@code sched_setaffinity}).
 *
 * <p>Every call goes through the C library's {@code syscall(number, ...)} with the system call's
 * number, through two downcall handles in all (one capturing {@code errno}, one for the futex,
 * which must cost as little as possible): each distinct downcall makes the JVM generate and load
 * classes for it when it is created, about 10 ms of a rank's start each, which nine handles, one
 * per function, cost every rank JVM. {@code strerror}, for messages only, is linked on first use.
 *
 * <p>Every call returns its result or throws {@link ErrnoException} carrying {@code errno};
 * callers turn that into a message that says what to change.
 */
final class Libc
{
    static final int O_RDWR = 2;
    static final int O_CLOEXEC = 0x80000;
    static final int MFD_CLOEXEC = 1;
    static final int MFD_HUGETLB = 4;
    static final int PROT_READ_WRITE = 0x1 | 0x2;
    static final int MAP_SHARED = 0x1;
    static final int MPOL_BIND = 2;
    static final int MPOL_MF_STRICT = 1;
    static final int MPOL_MF_MOVE = 2;
    static final int ENOSPC = 28;
    static final int ENOMEM = 12;
    static final int EOPNOTSUPP = 95;
    static final int EISDIR = 21;
    static final int EINVAL = 22;
    static final int ENOENT = 2;
    static final int ESRCH = 3;
    static final int O_RDONLY = 0;
    /** {@code AT_FDCWD}: {@code openat} resolves a relative path from the working directory (ours are absolute). */
    static final long AT_FDCWD = -100;

    /** {@code O_TMPFILE} (with its {@code O_DIRECTORY} bit) differs between architectures. */
    static final int O_TMPFILE;
    /** Futex operations without {@code FUTEX_PRIVATE_FLAG}: the word is shared between processes. */
    static final int FUTEX_WAIT = 0;
    static final int FUTEX_WAKE = 1;

    /** System call numbers, which differ between x86-64 and AArch64 (whose table has no plain {@code open}). */
    private static final long SYS_OPENAT;
    private static final long SYS_READ;
    private static final long SYS_CLOSE;
    private static final long SYS_FTRUNCATE;
    private static final long SYS_FALLOCATE;
    private static final long SYS_MEMFD_CREATE;
    private static final long SYS_MMAP;
    private static final long SYS_MUNMAP;
    private static final long SYS_MBIND;
    private static final long SYS_FUTEX;
    private static final long SYS_SCHED_SETAFFINITY;
    private static final long SYS_SCHED_GETAFFINITY;
    /** Bytes of a CPU mask: glibc's {@code cpu_set_t}, 1,024 CPUs. */
    static final int CPU_MASK_BYTES = 128;

    static
    {
        if ("aarch64".equals(System.getProperty("os.arch")))
        {
            O_TMPFILE = 0x400000 | 0x4000;
            SYS_OPENAT = 56;
            SYS_READ = 63;
            SYS_CLOSE = 57;
            SYS_FTRUNCATE = 46;
            SYS_FALLOCATE = 47;
            SYS_MEMFD_CREATE = 279;
            SYS_MMAP = 222;
            SYS_MUNMAP = 215;
            SYS_MBIND = 235;
            SYS_FUTEX = 98;
            SYS_SCHED_SETAFFINITY = 122;
            SYS_SCHED_GETAFFINITY = 123;
        }
        else
        {
            O_TMPFILE = 0x400000 | 0x10000;
            SYS_OPENAT = 257;
            SYS_READ = 0;
            SYS_CLOSE = 3;
            SYS_FTRUNCATE = 77;
            SYS_FALLOCATE = 285;
            SYS_MEMFD_CREATE = 319;
            SYS_MMAP = 9;
            SYS_MUNMAP = 11;
            SYS_MBIND = 237;
            SYS_FUTEX = 202;
            SYS_SCHED_SETAFFINITY = 203;
            SYS_SCHED_GETAFFINITY = 204;
        }
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    /** {@code long syscall(long number, ...)} with six arguments, all passed as {@code long} (pointers too). */
    private static final FunctionDescriptor SYSCALL_6 = FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);
    /** {@code syscall}, {@code errno} captured into the segment given first. */
    private static final MethodHandle SYSCALL = LINKER.downcallHandle(LINKER.defaultLookup().find("syscall")
        .orElseThrow(), SYSCALL_6, Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(1));
    /**
     * {@code syscall} without errno capture, for the futex: its failures (EAGAIN, ETIMEDOUT, EINTR) all mean
     * "look at the word again", and a wake-up must cost as little as possible; and for {@link #readStart}, which
     * must allocate nothing.
     */
    private static final MethodHandle FUTEX = LINKER.downcallHandle(LINKER.defaultLookup().find("syscall")
        .orElseThrow(), SYSCALL_6, Linker.Option.firstVariadicArg(1));

    private Libc()
    {
    }

    /** A failed call, with the errno it set. */
    static final class ErrnoException extends Exception
    {
        private static final long serialVersionUID = 1L;
        private final int errno;

        ErrnoException(final String call, final int errno)
        {
            super(call + ": " + strerror(errno) + " (errno " + errno + ")");
            this.errno = errno;
        }

        int errno()
        {
            return errno;
        }
    }

    /** {@code open(path, flags, mode)} ({@code openat} from the working directory); returns the file descriptor. */
    static int open(final String path, final int flags, final int mode) throws ErrnoException
    {
        return (int)call("open(" + path + ")", (arena, state) -> syscall(state, SYS_OPENAT, AT_FDCWD,
            arena.allocateFrom(path).address(), flags, mode));
    }

    /**
     * Reads the start of the file at {@code path} (a C string) into {@code buffer}: {@code open}, one {@code read},
     * {@code close}, allocating nothing on the heap while the file can be read, for checks that run while a thread
     * waits on a hot path (the liveness of peers: {@link ProcStat}). The calls go through the handle that does not
     * capture errno, since capturing it makes a segment per call; only a failed {@code open} asks again, capturing,
     * to learn why. One read is enough for the small files of {@code /proc}, which the kernel fills in one go.
     *
     * @return the bytes read, {@code -errno} if the file could not be opened, or {@link Long#MIN_VALUE} if it could
     *         not be read.
     */
    static long readStart(final MemorySegment path, final MemorySegment buffer)
    {
        try
        {
            final long fd = (long)FUTEX.invokeExact(SYS_OPENAT, AT_FDCWD, path.address(), (long)(O_RDONLY | O_CLOEXEC),
                0L, 0L, 0L);
            if (fd < 0)
            {
                return openErrno(path);
            }
            final long read = (long)FUTEX.invokeExact(SYS_READ, fd, buffer.address(), buffer.byteSize(), 0L, 0L, 0L);
            final long ignored = (long)FUTEX.invokeExact(SYS_CLOSE, fd, 0L, 0L, 0L, 0L, 0L);
            return read < 0 ? Long.MIN_VALUE : read;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("reading " + path.getString(0), t);
        }
    }

    /** {@code -errno} of opening {@code path} read-only, or the descriptor's number closed again if it opens now. */
    private static long openErrno(final MemorySegment path)
    {
        try
        {
            final long fd = call("open", (arena, state) -> syscall(state, SYS_OPENAT, AT_FDCWD, path.address(),
                O_RDONLY | O_CLOEXEC));
            close((int)fd);
            return Long.MIN_VALUE;
        }
        catch (final ErrnoException e)
        {
            return -e.errno();
        }
    }

    /** {@code memfd_create(name, flags)}; returns the file descriptor. */
    static int memfdCreate(final String name, final int flags) throws ErrnoException
    {
        return (int)call("memfd_create", (arena, state) -> syscall(state, SYS_MEMFD_CREATE,
            arena.allocateFrom(name).address(), flags));
    }

    /** {@code close(fd)}; errors are ignored, there is nothing left to do about them. */
    static void close(final int fd)
    {
        ignoringErrors("close", SYS_CLOSE, fd);
    }

    /** {@code ftruncate(fd, length)}. */
    static void ftruncate(final int fd, final long length) throws ErrnoException
    {
        call("ftruncate", (arena, state) -> syscall(state, SYS_FTRUNCATE, fd, length));
    }

    /** {@code fallocate(fd, 0, offset, length)}: allocates those pages now, or fails with ENOSPC now. */
    static void fallocate(final int fd, final long offset, final long length) throws ErrnoException
    {
        call("fallocate", (arena, state) -> syscall(state, SYS_FALLOCATE, fd, 0, offset, length));
    }

    /**
     * Maps {@code length} bytes of {@code fd} shared and read-write into {@code arena}: the
     * mapping is removed when the arena closes, and any access after that throws.
     */
    static MemorySegment mmapShared(final int fd, final long length, final Arena arena) throws ErrnoException
    {
        // MAP_FAILED is (void *)-1, negative like every other failed call's result.
        final long base = call("mmap", (arguments, state) -> syscall(state, SYS_MMAP, 0, length, PROT_READ_WRITE,
            MAP_SHARED, fd, 0));
        return MemorySegment.ofAddress(base).reinterpret(length, arena, ignored -> munmap(base, length));
    }

    private static void munmap(final long address, final long length)
    {
        ignoringErrors("munmap", SYS_MUNMAP, address, length);
    }

    /** {@code mbind(segment, MPOL_BIND, nodes)}: later page allocations for it come from {@code nodes} only. */
    static void mbindStrict(final MemorySegment segment, final long nodeMask) throws ErrnoException
    {
        call("mbind", (arena, state) -> syscall(state, SYS_MBIND, segment.address(), segment.byteSize(), MPOL_BIND,
            arena.allocateFrom(ValueLayout.JAVA_LONG, nodeMask).address(), Long.SIZE + 1,
            MPOL_MF_STRICT | MPOL_MF_MOVE));
    }

    /**
     * {@code futex(word, FUTEX_WAIT, expected, timeout)}: sleeps while the 32-bit {@code word}
     * holds {@code expected}, until woken or {@code timespec} (a {@code struct timespec}) has passed.
     */
    static void futexWait(final MemorySegment word, final int expected, final MemorySegment timespec)
    {
        try
        {
            final long ignored = (long)FUTEX.invokeExact(SYS_FUTEX, word.address(), (long)FUTEX_WAIT,
                (long)expected, timespec.address(), 0L, 0L);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("futex wait", t);
        }
    }

    /** {@code futex(word, FUTEX_WAKE, INT_MAX)}: wakes every process sleeping on {@code word}. */
    static void futexWakeAll(final MemorySegment word)
    {
        try
        {
            final long ignored = (long)FUTEX.invokeExact(SYS_FUTEX, word.address(), (long)FUTEX_WAKE,
                (long)Integer.MAX_VALUE, 0L, 0L, 0L);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("futex wake", t);
        }
    }

    /**
     * {@code sched_getaffinity(0, ...)}: the CPUs the calling thread may run on (not the process's: on
     * Linux each thread has its own mask, which the threads it starts inherit).
     */
    static BitSet callingThreadCpus() throws ErrnoException
    {
        final long[] words = new long[CPU_MASK_BYTES / Long.BYTES];
        call("sched_getaffinity", (arena, state) ->
        {
            final MemorySegment mask = arena.allocate(CPU_MASK_BYTES, Long.BYTES);
            final long result = syscall(state, SYS_SCHED_GETAFFINITY, 0, CPU_MASK_BYTES, mask.address());
            MemorySegment.copy(mask, ValueLayout.JAVA_LONG, 0, words, 0, words.length);
            return result;
        });
        return BitSet.valueOf(words);
    }

    /** {@code sched_setaffinity(0, ...)}: the calling thread runs on {@code cpu} only, from now on. */
    static void bindCallingThread(final int cpu) throws ErrnoException
    {
        if (cpu < 0 || cpu >= CPU_MASK_BYTES * Byte.SIZE)
        {
            throw new IllegalArgumentException("cpu=" + cpu + " is outside 0-" + (CPU_MASK_BYTES * Byte.SIZE - 1));
        }
        call("sched_setaffinity(" + cpu + ")", (arena, state) ->
        {
            final MemorySegment mask = arena.allocate(CPU_MASK_BYTES, Long.BYTES);
            mask.setAtIndex(ValueLayout.JAVA_LONG, cpu / Long.SIZE, 1L << (cpu % Long.SIZE));
            return syscall(state, SYS_SCHED_SETAFFINITY, 0, CPU_MASK_BYTES, mask.address());
        });
    }

    /** The C library's text for {@code errno}. */
    static String strerror(final int errno)
    {
        try
        {
            final MemorySegment text = (MemorySegment)Strerror.HANDLE.invokeExact(errno);
            return text.reinterpret(256).getString(0);
        }
        catch (final Throwable t)
        {
            return "errno " + errno;
        }
    }

    /** {@code strerror}, linked on its first use: only a failed call needs it. */
    private static final class Strerror
    {
        static final MethodHandle HANDLE = LINKER.downcallHandle(LINKER.defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    }

    /** {@code syscall(number, arguments...)}, the missing arguments 0; errno goes to {@code state}. */
    private static long syscall(final MemorySegment state, final long number, final long... arguments)
        throws Throwable
    {
        final long[] six = new long[6];
        System.arraycopy(arguments, 0, six, 0, arguments.length);
        return (long)SYSCALL.invokeExact(state, number, six[0], six[1], six[2], six[3], six[4], six[5]);
    }

    /** A call whose failure leaves nothing to do (releasing what is no longer used). */
    private static void ignoringErrors(final String name, final long number, final long... arguments)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final long ignored = syscall(arena.allocate(CALL_STATE), number, arguments);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException(name, t);
        }
    }

    /** One libc call, given a confined arena for its arguments and the segment that captures errno. */
    @FunctionalInterface
    private interface NativeCall
    {
        long invoke(Arena arena, MemorySegment errnoState) throws Throwable;
    }

    /** Runs {@code call}; a negative result throws {@link ErrnoException} with the errno it left. */
    private static long call(final String name, final NativeCall call) throws ErrnoException
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment state = arena.allocate(CALL_STATE);
            final long result = call.invoke(arena, state);
            if (result < 0)
            {
                throw new ErrnoException(name, (int)ERRNO.get(state, 0L));
            }
            return result;
        }
        catch (final ErrnoException e)
        {
            throw e;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException(name, t);
        }
    }
}
