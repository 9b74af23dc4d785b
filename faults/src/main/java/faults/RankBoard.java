package faults;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A small file that the ranks of a fault trial and the injector map together: each rank says
 * where it is (its pid, whether it is inside the phase under test), the injector tells a rank
 * thread to die (multicore), and the dying thread says when it died. A mapped file and not
 * standard output: the job kit hands the output over only when the job has ended, and a store
 * here costs nanoseconds, so a rank can mark every operation of the phase.
 *
 * <pre>
 * one slot of {@value #SLOT_BYTES} bytes per rank, at rank * {@value #SLOT_BYTES}:
 *   0  int  state        NOT_STARTED, PREPARING, INSIDE (in an operation of the phase), BETWEEN
 *   8  long pid          of the rank's JVM, written before the state leaves NOT_STARTED
 *  16  int  dieNow       set by the injector: the rank thread throws at its next check
 *  24  long diedAtNs     System.nanoTime() when the thread threw (CLOCK_MONOTONIC: one clock per host)
 * </pre>
 * Stores are volatile: the slot is read by another process while it is written.
 */
final class RankBoard implements AutoCloseable
{
    static final int NOT_STARTED = 0;
    static final int PREPARING = 1;
    static final int INSIDE = 2;
    static final int BETWEEN = 3;

    static final long SLOT_BYTES = 64;
    private static final long STATE_OFFSET = 0;
    private static final long PID_OFFSET = 8;
    private static final long DIE_NOW_OFFSET = 16;
    private static final long DIED_AT_OFFSET = 24;

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final Arena arena;
    private final MemorySegment slots;
    private final int ranks;

    private RankBoard(final Arena arena, final MemorySegment slots, final int ranks)
    {
        this.arena = arena;
        this.slots = slots;
        this.ranks = ranks;
    }

    /** Maps {@code file} (created, zero-filled, if missing) with one slot for each of {@code ranks} ranks. */
    static RankBoard open(final Path file, final int ranks) throws IOException
    {
        if (ranks < 1)
        {
            throw new IllegalArgumentException("ranks=" + ranks + " must be at least 1");
        }
        final Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            return new RankBoard(arena, channel.map(FileChannel.MapMode.READ_WRITE, 0, ranks * SLOT_BYTES, arena),
                ranks);
        }
        catch (final IOException | RuntimeException e)
        {
            arena.close();
            throw e;
        }
    }

    int ranks()
    {
        return ranks;
    }

    int state(final int rank)
    {
        return (int) INT.getVolatile(slots, offset(rank, STATE_OFFSET));
    }

    void state(final int rank, final int state)
    {
        INT.setVolatile(slots, offset(rank, STATE_OFFSET), state);
    }

    long pid(final int rank)
    {
        return (long) LONG.getVolatile(slots, offset(rank, PID_OFFSET));
    }

    /** Publishes the rank's pid, then PREPARING (so that a reader who sees the state sees the pid). */
    void announce(final int rank, final long pid)
    {
        LONG.setVolatile(slots, offset(rank, PID_OFFSET), pid);
        state(rank, PREPARING);
    }

    boolean dieNow(final int rank)
    {
        return (int) INT.getVolatile(slots, offset(rank, DIE_NOW_OFFSET)) != 0;
    }

    void orderToDie(final int rank)
    {
        INT.setVolatile(slots, offset(rank, DIE_NOW_OFFSET), 1);
    }

    /** When the rank's thread died (0 while it has not). */
    long diedAtNs(final int rank)
    {
        return (long) LONG.getVolatile(slots, offset(rank, DIED_AT_OFFSET));
    }

    void died(final int rank, final long nowNs)
    {
        LONG.setVolatile(slots, offset(rank, DIED_AT_OFFSET), nowNs);
    }

    private long offset(final int rank, final long field)
    {
        if (rank < 0 || rank >= ranks)
        {
            throw new IndexOutOfBoundsException("rank=" + rank + " is not in [0, " + ranks + ")");
        }
        return rank * SLOT_BYTES + field;
    }

    @Override
    public void close()
    {
        arena.close();
    }
}
