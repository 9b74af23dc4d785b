package bench.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.LongUnaryOperator;

import bench.harness.Samples;
import xdev.shmdev.ShmDevice;

/**
 * The floor of the shm device's large-message path, without the device: what its two copies cost on this
 * machine when nothing else is done. Two threads of one JVM, bound as the device binds its ranks
 * ({@link BoundPair}), move {@code byte[]} messages through a {@value #RING_BYTES}-byte native ring in
 * {@value #CHUNK_BYTES}-byte pieces: the sender copies a piece in and publishes it with a release store of a
 * {@code filled} count, the receiver copies it out into its own array and releases a {@code drained} count, as
 * the device's staging ring does (but no queue, records, clear-to-send, matching or MPJ Express in between).
 * Beside it, one copy: {@code System.arraycopy} between two arrays by one thread, what a single-copy transfer
 * (Open MPI's CMA) could reach at best.
 *
 * <p>Arguments: warm-up in ms, repetitions, repetition target in ns, then message sizes in bytes (multiples of
 * {@value #CHUNK_BYTES}). Prints one {@link Samples} line per size and kind, in GB/s per repetition:
 * {@code ring:<bytes>} and {@code copy:<bytes>}.
 */
public final class RingModel
{
    /** The device's piece: what its sender writes into the staging ring between two releases of {@code filled}. */
    static final int CHUNK_BYTES = ShmDevice.CHUNK_BYTES;
    static final long RING_BYTES = 4L << 20;
    private static final VarHandle COUNT = ValueLayout.JAVA_LONG.varHandle();
    /** {@code filled} and {@code drained}, each on a cache-line pair of its own. */
    private static final long FILLED = 0;
    private static final long DRAINED = 128;

    private final MemorySegment ring;
    private final MemorySegment counts;

    private RingModel(final Arena arena)
    {
        ring = arena.allocate(RING_BYTES, 4096);
        counts = arena.allocate(256, 128);
    }

    public static void main(final String[] args) throws Exception
    {
        final long warmupNs = Long.parseLong(args[0]) * 1_000_000L;
        final int repetitions = Integer.parseInt(args[1]);
        final long targetNs = Long.parseLong(args[2]);
        try (Arena arena = Arena.ofShared())
        {
            final RingModel model = new RingModel(arena);
            for (int i = 3; i < args.length; i++)
            {
                final int bytes = Integer.parseInt(args[i]);
                if (bytes <= 0 || bytes % CHUNK_BYTES != 0)
                {
                    throw new IllegalArgumentException("message size " + bytes + " is not a positive multiple of " +
                        CHUNK_BYTES);
                }
                Samples.print("ring:" + bytes, 0, 0, measure(ops -> model.ring(bytes, ops), bytes, warmupNs,
                    repetitions, targetNs));
                final byte[] from = new byte[bytes];
                final byte[] to = new byte[bytes];
                Samples.print("copy:" + bytes, 0, 0, measure(ops -> copy(from, to, ops), bytes, warmupNs,
                    repetitions, targetNs));
            }
        }
    }

    /** GB/s of each repetition of {@code run} (operation count to ns) for messages of {@code bytes}. */
    private static double[] measure(final LongUnaryOperator run, final int bytes, final long warmupNs,
        final int repetitions, final long targetNs)
    {
        final BoundPair.Repetitions measured = BoundPair.measure(run, warmupNs, repetitions, targetNs);
        final double[] gbPerS = new double[repetitions];
        for (int r = 0; r < repetitions; r++)
        {
            gbPerS[r] = (double)bytes * measured.ops() / measured.nanos()[r];
        }
        return gbPerS;
    }

    private static long copy(final byte[] from, final byte[] to, final long ops)
    {
        final long start = System.nanoTime();
        for (long i = 0; i < ops; i++)
        {
            System.arraycopy(from, 0, to, 0, from.length);
        }
        return System.nanoTime() - start;
    }

    /** Moves {@code ops} messages of {@code bytes} from a sender thread to a receiver thread; the receiver's ns. */
    private long ring(final int bytes, final long ops)
    {
        final byte[] sent = new byte[bytes];
        final byte[] received = new byte[bytes];
        return BoundPair.run(() ->
        {
            for (long i = 0; i < ops; i++)
            {
                send(sent);
            }
        }, () ->
        {
            for (long i = 0; i < ops; i++)
            {
                receive(received);
            }
        });
    }

    private void send(final byte[] message)
    {
        for (int offset = 0; offset < message.length; offset += CHUNK_BYTES)
        {
            final long filled = (long)COUNT.getAcquire(counts, FILLED);
            while (filled + CHUNK_BYTES - (long)COUNT.getAcquire(counts, DRAINED) > RING_BYTES)
            {
                Thread.onSpinWait();
            }
            MemorySegment.copy(message, offset, ring, ValueLayout.JAVA_BYTE, filled % RING_BYTES, CHUNK_BYTES);
            COUNT.setRelease(counts, FILLED, filled + CHUNK_BYTES);
        }
    }

    private void receive(final byte[] message)
    {
        for (int offset = 0; offset < message.length; offset += CHUNK_BYTES)
        {
            final long drained = (long)COUNT.getAcquire(counts, DRAINED);
            while ((long)COUNT.getAcquire(counts, FILLED) - drained < CHUNK_BYTES)
            {
                Thread.onSpinWait();
            }
            MemorySegment.copy(ring, ValueLayout.JAVA_BYTE, drained % RING_BYTES, message, offset, CHUNK_BYTES);
            COUNT.setRelease(counts, DRAINED, drained + CHUNK_BYTES);
        }
    }
}
