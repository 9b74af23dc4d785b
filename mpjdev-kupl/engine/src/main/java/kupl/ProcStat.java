package kupl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reads a process's state and start time from {@code /proc/<pid>/stat} without allocating on the heap: the
 * liveness check of every wait that outlasts its spinning runs it ({@link Liveness}), and a wait on a
 * message must make no garbage, however long the scheduler keeps the peer from answering (a loaded machine
 * made waits reach the check, and the old reader's string, path and 50 split fields showed as some 35 extra
 * bytes per message in the allocation tests).
 *
 * <p>The file is read into native memory kept for the life of the JVM and parsed in place; the calls are
 * serialised, since they are rare (one per waiting thread per liveness interval). Errors other than "no such
 * process" are left to the caller's fallback.
 */
final class ProcStat
{
    /** What {@link #startTicks} returns for a process that is gone, or a zombie. */
    static final long GONE = -1;
    /** What {@link #startTicks} returns when the file could not be read for another reason. */
    static final long UNREADABLE = -2;

    /** {@code /proc/} + up to 20 digits + {@code /stat} + NUL. */
    private static final int PATH_BYTES = 32;
    /** The whole of a stat line: 52 fields of at most 20 digits, and a command name of at most 64 bytes. */
    private static final int LINE_BYTES = 2048;
    /** Fields after the command name up to the start time: state is field 3, starttime field 22. */
    private static final int FIELDS_TO_START_TIME = 19;
    private static final byte[] PREFIX = {'/', 'p', 'r', 'o', 'c', '/'};
    private static final byte[] SUFFIX = {'/', 's', 't', 'a', 't', 0};

    private static final Object LOCK = new Object();
    private static final MemorySegment PATH;
    private static final MemorySegment LINE;

    static
    {
        final Arena arena = Arena.global();
        PATH = arena.allocate(PATH_BYTES);
        LINE = arena.allocate(LINE_BYTES);
    }

    private ProcStat()
    {
    }

    /**
     * The start time of process {@code pid} in clock ticks after boot (field 22), {@link #GONE} if there is no
     * such process or it is a zombie (it has exited and waits for its parent), {@link #UNREADABLE} otherwise.
     */
    static long startTicks(final long pid)
    {
        if (pid <= 0)
        {
            return GONE;
        }
        synchronized (LOCK)
        {
            writePath(pid);
            final long length = Libc.readStart(PATH, LINE);
            if (length == -Libc.ENOENT || length == -Libc.ESRCH)
            {
                return GONE;
            }
            return length <= 0 ? UNREADABLE : parse(length);
        }
    }

    /** {@code /proc/<pid>/stat}, NUL-terminated, into {@link #PATH}. */
    private static void writePath(final long pid)
    {
        long offset = 0;
        for (final byte b : PREFIX)
        {
            PATH.set(ValueLayout.JAVA_BYTE, offset++, b);
        }
        int digits = 1;
        for (long shorter = pid / 10; shorter > 0; shorter /= 10)
        {
            digits++;
        }
        long rest = pid;
        for (int i = digits - 1; i >= 0; i--)
        {
            PATH.set(ValueLayout.JAVA_BYTE, offset + i, (byte)('0' + rest % 10));
            rest /= 10;
        }
        offset += digits;
        for (final byte b : SUFFIX)
        {
            PATH.set(ValueLayout.JAVA_BYTE, offset++, b);
        }
    }

    /** The start time in a stat line of {@code length} bytes, or {@link #GONE} for a zombie or dead process. */
    private static long parse(final long length)
    {
        // The command name (field 2) may hold spaces and parentheses: the fields go on after the last ')'.
        long position = length - 1;
        while (position >= 0 && LINE.get(ValueLayout.JAVA_BYTE, position) != ')')
        {
            position--;
        }
        position += 2;
        if (position <= 1 || position >= length)
        {
            return UNREADABLE;
        }
        final byte state = LINE.get(ValueLayout.JAVA_BYTE, position);
        if (state == 'Z' || state == 'X')
        {
            return GONE;
        }
        for (int spaces = 0; spaces < FIELDS_TO_START_TIME && position < length; position++)
        {
            if (LINE.get(ValueLayout.JAVA_BYTE, position) == ' ')
            {
                spaces++;
            }
        }
        long ticks = 0;
        boolean any = false;
        for (; position < length; position++)
        {
            final byte b = LINE.get(ValueLayout.JAVA_BYTE, position);
            if (b < '0' || b > '9')
            {
                break;
            }
            ticks = ticks * 10 + (b - '0');
            any = true;
        }
        return any ? ticks : UNREADABLE;
    }
}
