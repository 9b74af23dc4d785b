package bench.harness;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * The page reservation alone, as a reference for window allocation: an unnamed file in a
 * tmpfs ({@code O_TMPFILE}, so nothing can be left behind), {@code fallocate} of every byte,
 * then {@code close}, which hands the pages back. The engine does the same for each object
 * it creates, plus mapping, fence flags and out-of-band exchanges.
 */
public final class TmpfsReservation
{
    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 0x80000;
    /** {@code O_TMPFILE} includes {@code O_DIRECTORY}, whose bit differs between architectures. */
    private static final int O_TMPFILE = "aarch64".equals(System.getProperty("os.arch")) ?
        0x400000 | 0x4000 : 0x400000 | 0x10000;
    private static final int MODE_0600 = 0600;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle FALLOCATE = downcall("fallocate", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT));

    private TmpfsReservation()
    {
    }

    private static MethodHandle downcall(final String name, final FunctionDescriptor descriptor,
        final Linker.Option... options)
    {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor, options);
    }

    /**
     * Reserves {@code sizeBytes} in a new unnamed file of {@code directory}, then releases them.
     *
     * @return nanoseconds of the reservation (from before {@code open} to after {@code fallocate})
     *         and of the release ({@code close}, which frees the pages).
     */
    public static long[] reserveAndReleaseNs(final Path directory, final long sizeBytes)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment path = arena.allocateFrom(directory.toString());
            final long startNs = System.nanoTime();
            final int fd = (int)OPEN.invokeExact(path, O_TMPFILE | O_RDWR | O_CLOEXEC, MODE_0600);
            if (fd < 0)
            {
                throw new IllegalStateException("open(" + directory + ", O_TMPFILE) failed");
            }
            final int reserved = (int)FALLOCATE.invokeExact(fd, 0, 0L, sizeBytes);
            final long reservedNs = System.nanoTime();
            final int closed = (int)CLOSE.invokeExact(fd);
            final long releasedNs = System.nanoTime();
            if (reserved != 0 || closed != 0)
            {
                throw new IllegalStateException("fallocate of " + sizeBytes + " bytes in " + directory + " failed");
            }
            return new long[] {reservedNs - startNs, releasedNs - reservedNs};
        }
        catch (final RuntimeException | Error e)
        {
            throw e;
        }
        catch (final Throwable e)
        {
            throw new IllegalStateException(e);
        }
    }
}
