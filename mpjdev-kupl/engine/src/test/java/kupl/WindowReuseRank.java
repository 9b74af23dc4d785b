package kupl;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import kupl.bootstrap.SocketOob;

/**
 * One process of the window-reuse checks ({@link WindowReuseTest}). Its out-of-band callbacks
 * count the allgathers, so that it can tell how many exchanges each allocation made. Modes
 * (first argument; the second is contiguous, 0 or 1):
 * <ul>
 *   <li>{@code sizes}: a window; a smaller one, which must reuse the first's memory (one exchange),
 *   start zeroed and be fully usable, while the first window's segments throw; a larger one, which
 *   must get new memory; then, through {@link ShmComm#allocate(long[], boolean, long[])} with the
 *   kept-memory ids exchanged by the caller, a smaller one that reuses with no exchange at all and
 *   a larger one that takes the exchanging path. Prints "reuse ok".</li>
 *   <li>{@code tmpfs}: in a small tmpfs, a window of {@code args[2]} bytes per process, freed (so
 *   kept), then one of {@code args[3]} bytes, which only fits if the kept memory is given back
 *   first, then one of {@code args[4]} bytes, which must be refused at allocation, then the first
 *   size again. Prints "replaced ok", "refused: MESSAGE" and "small again ok".</li>
 *   <li>{@code hold}: a window of {@code args[2]} bytes per process, freed (so kept); prints "kept"
 *   and waits for a line on standard input, then exits without destroying the comm.</li>
 * </ul>
 * Any mismatch exits 1 with a message.
 */
public final class WindowReuseRank
{
    private static final AtomicInteger ALLGATHERS = new AtomicInteger();

    public static void main(final String[] args) throws Exception
    {
        final String mode = args[0];
        final boolean contiguous = "1".equals(args[1]);
        try (SocketOob socket = SocketOob.fromSystemProperties())
        {
            final OobCallbacks counting = new OobCallbacks()
            {
                @Override
                public int oobAllgather(final byte[] sendbuf, final byte[] recvbuf, final int size, final Object group,
                    final ShmDatatype datatype)
                {
                    ALLGATHERS.incrementAndGet();
                    return socket.oobAllgather(sendbuf, recvbuf, size, group, datatype);
                }

                @Override
                public int oobBarrier(final Object group)
                {
                    return socket.oobBarrier(group);
                }
            };
            final ShmComm comm = ShmComm.create(socket.size(), socket.rank(), ProcessHandle.current().pid(), counting,
                null);
            switch (mode)
            {
                case "sizes" -> sizes(comm, socket, contiguous);
                case "tmpfs" -> tmpfs(comm, contiguous, Long.parseLong(args[2]), Long.parseLong(args[3]),
                    Long.parseLong(args[4]));
                case "hold" -> hold(comm, contiguous, Long.parseLong(args[2]));
                default -> fail("unknown mode " + mode);
            }
        }
    }

    private static void sizes(final ShmComm comm, final SocketOob socket, final boolean contiguous)
    {
        final int rank = comm.rank();
        // Uneven, not multiples of a page, and one process without a segment in the second window.
        final long firstId;
        final MemorySegment freedSegment;
        try (ShmWin first = allocate(comm, 8192 + 1000L * rank, contiguous, 3, "first window"))
        {
            use(first, 1);
            firstId = first.memoryId();
            freedSegment = first.segment((rank + 1) % comm.size());
        }
        try
        {
            freedSegment.get(ValueLayout.JAVA_BYTE, 0);
            fail("a segment of a freed window can still be read");
        }
        catch (final IllegalStateException expected)
        {
            // The window's views are closed even though its memory is kept.
        }

        final long secondId;
        try (ShmWin second = allocate(comm, rank == 1 ? 0 : 4000 + 8L * rank, contiguous, 1, "smaller window"))
        {
            secondId = second.memoryId();
            expect(secondId == firstId, "the smaller window should reuse memory " + firstId + ", got " + secondId);
            second.fence();
            checkZero(second);
            // Nobody writes before everybody has checked.
            second.fence();
            use(second, 2);
        }

        final long thirdId;
        try (ShmWin third = allocate(comm, 64 << 10, contiguous, 3, "larger window"))
        {
            thirdId = third.memoryId();
            expect(thirdId != firstId, "the larger window should get new memory, got kept memory " + thirdId);
            use(third, 3);
        }

        // The caller exchanges the kept-memory ids along with its arguments: no exchange of the engine's own.
        final long[] agreedSizes = new long[comm.size()];
        for (int peer = 0; peer < agreedSizes.length; peer++)
        {
            agreedSizes[peer] = 1000 + 24L * peer;
        }
        try (ShmWin fourth = allocateAgreed(comm, socket, agreedSizes, contiguous, 0, "agreed smaller window"))
        {
            expect(fourth.memoryId() == thirdId, "the agreed window should reuse memory " + thirdId + ", got " +
                fourth.memoryId());
            fourth.fence();
            checkZero(fourth);
            fourth.fence();
            use(fourth, 4);
        }
        java.util.Arrays.fill(agreedSizes, 128 << 10);
        try (ShmWin fifth = allocateAgreed(comm, socket, agreedSizes, contiguous, 3, "agreed larger window"))
        {
            expect(fifth.memoryId() != thirdId, "the agreed larger window should get new memory");
            use(fifth, 5);
        }
        comm.close();
        System.out.println("reuse ok");
    }

    private static void tmpfs(final ShmComm comm, final boolean contiguous, final long smallBytes,
        final long replacingBytes, final long refusedBytes)
    {
        try (ShmWin small = comm.allocate(smallBytes, contiguous))
        {
            use(small, 1);
        }
        try (ShmWin replacing = comm.allocate(replacingBytes, contiguous))
        {
            use(replacing, 2);
        }
        System.out.println("replaced ok");
        try (ShmWin refused = comm.allocate(refusedBytes, contiguous))
        {
            fail("a window of " + refusedBytes + " bytes per process was granted: " + refused);
        }
        catch (final KuplException e)
        {
            System.out.println("refused: " + e.getMessage());
        }
        try (ShmWin small = comm.allocate(smallBytes, contiguous))
        {
            use(small, 3);
        }
        comm.close();
        System.out.println("small again ok");
    }

    private static void hold(final ShmComm comm, final boolean contiguous, final long bytes) throws Exception
    {
        try (ShmWin win = comm.allocate(bytes, contiguous))
        {
            use(win, 1);
        }
        System.out.println("kept");
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII)).readLine();
        System.exit(0);
    }

    private static ShmWin allocate(final ShmComm comm, final long bytes, final boolean contiguous,
        final int expectedExchanges, final String what)
    {
        final int before = ALLGATHERS.get();
        final ShmWin win = comm.allocate(bytes, contiguous);
        expect(ALLGATHERS.get() - before == expectedExchanges, what + ": " + (ALLGATHERS.get() - before) +
            " out-of-band exchanges, expected " + expectedExchanges);
        return win;
    }

    private static ShmWin allocateAgreed(final ShmComm comm, final SocketOob socket, final long[] sizes,
        final boolean contiguous, final int expectedExchanges, final String what)
    {
        // What an MPI library does in its own exchange of arguments.
        final byte[] own = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN)
            .putLong(comm.keptMemoryId()).array();
        final byte[] all = new byte[Long.BYTES * comm.size()];
        expect(socket.oobAllgather(own, all, Long.BYTES, null, ShmDatatype.CHAR) == Kupl.KUPL_OK, "allgather failed");
        final long[] keptIds = new long[comm.size()];
        ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(keptIds);
        final int before = ALLGATHERS.get();
        final ShmWin win = comm.allocate(sizes, contiguous, keptIds);
        expect(ALLGATHERS.get() - before == expectedExchanges, what + ": " + (ALLGATHERS.get() - before) +
            " out-of-band exchanges, expected " + expectedExchanges);
        return win;
    }

    /** Every process writes its segment, fences, and checks every segment. */
    private static void use(final ShmWin win, final int generation)
    {
        final int rank = win.comm().rank();
        final MemorySegment own = win.base();
        for (long i = 0; i < own.byteSize(); i++)
        {
            own.set(ValueLayout.JAVA_BYTE, i, value(generation, rank, i));
        }
        win.fence();
        for (int peer = 0; peer < win.comm().size(); peer++)
        {
            final MemorySegment segment = win.segment(peer);
            for (long i = 0; i < segment.byteSize(); i++)
            {
                if (segment.get(ValueLayout.JAVA_BYTE, i) != value(generation, peer, i))
                {
                    fail("generation " + generation + ": rank " + peer + "'s byte " + i + " is " +
                        segment.get(ValueLayout.JAVA_BYTE, i) + ", expected " + value(generation, peer, i));
                }
            }
        }
        // Nobody frees (or rewrites) before everybody has checked.
        win.fence();
    }

    private static void checkZero(final ShmWin win)
    {
        for (int peer = 0; peer < win.comm().size(); peer++)
        {
            final MemorySegment segment = win.segment(peer);
            for (long i = 0; i < segment.byteSize(); i++)
            {
                if (segment.get(ValueLayout.JAVA_BYTE, i) != 0)
                {
                    fail("a reused window should start zeroed: rank " + peer + "'s byte " + i + " is " +
                        segment.get(ValueLayout.JAVA_BYTE, i));
                }
            }
        }
    }

    private static byte value(final int generation, final int rank, final long index)
    {
        return (byte)(generation * 31 + rank * 7 + index % 13 + 1);
    }

    private static void expect(final boolean condition, final String why)
    {
        if (!condition)
        {
            fail(why);
        }
    }

    private static void fail(final String why)
    {
        System.out.println(why);
        System.exit(1);
    }
}
