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

/**
 * The few Linux calls the JDK has no API for, through the FFM linker: creating unnamed
 * shared-memory files ({@code O_TMPFILE}, {@code memfd_create}), reserving their pages
 * ({@code fallocate}, so that a full tmpfs is an error at allocation instead of a SIGBUS at
 * first touch), mapping them and binding them to a NUMA node ({@code mbind}).
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

    /** {@code O_TMPFILE} (with its {@code O_DIRECTORY} bit) differs between architectures. */
    static final int O_TMPFILE;
    /** {@code SYS_mbind}: glibc has no wrapper (libnuma has), so it goes through {@code syscall}. */
    static final long SYS_MBIND;
    /** {@code SYS_futex}: called directly, glibc has no wrapper. */
    static final long SYS_FUTEX;
    /** Futex operations without {@code FUTEX_PRIVATE_FLAG}: the word is shared between processes. */
    static final int FUTEX_WAIT = 0;
    static final int FUTEX_WAKE = 1;

    static
    {
        final String arch = System.getProperty("os.arch");
        if ("aarch64".equals(arch))
        {
            O_TMPFILE = 0x400000 | 0x4000;
            SYS_MBIND = 235;
            SYS_FUTEX = 98;
        }
        else
        {
            O_TMPFILE = 0x400000 | 0x10000;
            SYS_MBIND = 237;
            SYS_FUTEX = 202;
        }
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final MethodHandle OPEN = downcall("open",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
        Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(LINKER.defaultLookup().find("close").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle FTRUNCATE = downcall("ftruncate",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle FALLOCATE = downcall("fallocate",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle MEMFD_CREATE = downcall("memfd_create",
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle MMAP = downcall("mmap",
        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle MUNMAP = LINKER.downcallHandle(LINKER.defaultLookup().find("munmap").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle SYSCALL6 = downcall("syscall",
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
        Linker.Option.firstVariadicArg(1));
    /**
     * {@code syscall(SYS_futex, ...)} without errno capture: its failures (EAGAIN, ETIMEDOUT,
     * EINTR) all mean "look at the word again", and a wake-up must cost as little as possible.
     */
    private static final MethodHandle FUTEX = LINKER.downcallHandle(
        LINKER.defaultLookup().find("syscall").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_LONG),
        Linker.Option.firstVariadicArg(1));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(LINKER.defaultLookup().find("strerror").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

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

    /** {@code open(path, flags, mode)}; returns the file descriptor. */
    static int open(final String path, final int flags, final int mode) throws ErrnoException
    {
        return (int)call("open(" + path + ")", (arena, state) ->
            (int)OPEN.invokeExact(state, arena.allocateFrom(path), flags, mode));
    }

    /** {@code memfd_create(name, flags)}; returns the file descriptor. */
    static int memfdCreate(final String name, final int flags) throws ErrnoException
    {
        return (int)call("memfd_create", (arena, state) ->
            (int)MEMFD_CREATE.invokeExact(state, arena.allocateFrom(name), flags));
    }

    /** {@code close(fd)}; errors are ignored, there is nothing left to do about them. */
    static void close(final int fd)
    {
        try
        {
            final int ignored = (int)CLOSE.invokeExact(fd);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException(t);
        }
    }

    /** {@code ftruncate(fd, length)}. */
    static void ftruncate(final int fd, final long length) throws ErrnoException
    {
        call("ftruncate", (arena, state) -> (int)FTRUNCATE.invokeExact(state, fd, length));
    }

    /** {@code fallocate(fd, 0, offset, length)}: allocates those pages now, or fails with ENOSPC now. */
    static void fallocate(final int fd, final long offset, final long length) throws ErrnoException
    {
        call("fallocate", (arena, state) -> (int)FALLOCATE.invokeExact(state, fd, 0, offset, length));
    }

    /**
     * Maps {@code length} bytes of {@code fd} shared and read-write into {@code arena}: the
     * mapping is removed when the arena closes, and any access after that throws.
     */
    static MemorySegment mmapShared(final int fd, final long length, final Arena arena) throws ErrnoException
    {
        // MAP_FAILED is (void *)-1, negative like every other failed call's result.
        final long base = call("mmap", (arguments, state) -> ((MemorySegment)MMAP.invokeExact(state, MemorySegment.NULL,
            length, PROT_READ_WRITE, MAP_SHARED, fd, 0L)).address());
        return MemorySegment.ofAddress(base).reinterpret(length, arena, ignored -> munmap(base, length));
    }

    private static void munmap(final long address, final long length)
    {
        try
        {
            final int ignored = (int)MUNMAP.invokeExact(MemorySegment.ofAddress(address), length);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException(t);
        }
    }

    /** {@code mbind(segment, MPOL_BIND, nodes)}: later page allocations for it come from {@code nodes} only. */
    static void mbindStrict(final MemorySegment segment, final long nodeMask) throws ErrnoException
    {
        call("mbind", (arena, state) -> (long)SYSCALL6.invokeExact(state, SYS_MBIND, segment.address(),
            segment.byteSize(), (long)MPOL_BIND, arena.allocateFrom(ValueLayout.JAVA_LONG, nodeMask),
            (long)Long.SIZE + 1, (long)(MPOL_MF_STRICT | MPOL_MF_MOVE)));
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
                (long)expected, timespec, 0L, 0L);
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
                (long)Integer.MAX_VALUE, MemorySegment.NULL, 0L, 0L);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("futex wake", t);
        }
    }

    /** The C library's text for {@code errno}. */
    static String strerror(final int errno)
    {
        try
        {
            final MemorySegment text = (MemorySegment)STRERROR.invokeExact(errno);
            return text.reinterpret(256).getString(0);
        }
        catch (final Throwable t)
        {
            return "errno " + errno;
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

    private static MethodHandle downcall(final String name, final FunctionDescriptor descriptor,
        final Linker.Option... options)
    {
        final Linker.Option[] all = new Linker.Option[options.length + 1];
        all[0] = CAPTURE_ERRNO;
        System.arraycopy(options, 0, all, 1, options.length);
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor, all);
    }
}
