package xdev.shmdev;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.UUID;

import kupl.Doorbell;
import mpjbuf.Buffer;
import mpjdev.Status;

/**
 * Two ranks' protocol stacks ({@link PeerQueues}, {@link MatchQueues}, {@link MessageProtocol})
 * over segments of this process's memory, laid out as the device lays them out: the protocol
 * without processes, threads or waiting, driven by {@link #pump()}.
 */
final class ProtocolPair implements AutoCloseable
{
    /** One rank's stack. */
    static final class Side
    {
        final int rank;
        final PeerQueues queues;
        final MatchQueues matching = new MatchQueues();
        final MessageProtocol protocol;
        final DirectReads directReads;

        Side(final int rank, final MemorySegment[] segments, final SegmentDescriptor layout,
            final boolean directReadsOn)
        {
            this.rank = rank;
            this.directReads = new DirectReads(directReadsOn);
            final Doorbell[] bells = new Doorbell[2];
            final ShmQueue[] outbound = new ShmQueue[2];
            final RendezvousRing[] areas = new RendezvousRing[2];
            for (int peer = 0; peer < 2; peer++)
            {
                bells[peer] = layout.doorbell(segments[peer]);
                outbound[peer] = peer == rank ? null : layout.queue(segments[peer], rank);
                areas[peer] = layout.staging(segments[peer]);
            }
            final Completions completions = new Completions(bells[rank]);
            queues = new PeerQueues(rank, layout.queue(segments[rank], rank), outbound, bells, directReads,
                completions);
            protocol = new MessageProtocol(rank, 2, queues, matching, completions, directReads,
                new StagedTransfers(rank, areas, bells, completions), peer -> ProcessHandle.current().pid(),
                peer -> new UUID(0, peer));
        }
    }

    /** Nothing drives requests here but {@link #pump()}: waiting for one that is not done is a test failure. */
    static final RequestDriver UNDRIVEN = new RequestDriver()
    {
        @Override
        public void await(final ShmRequest request)
        {
            if (!request.isDone())
            {
                throw new AssertionError("not driven in this test: " + request.describe() + " is not done");
            }
        }

        @Override
        public kupl.Waiter.Outcome attemptCompletion(final ShmRequest request)
        {
            return request.isDone() ? kupl.Waiter.Outcome.MET : kupl.Waiter.Outcome.IDLE;
        }

        @Override
        public void progressOnce()
        {
        }

        @Override
        public void forget(final ShmRequest request)
        {
        }
    };

    private final Arena arena = Arena.ofConfined();
    final MemorySegment[] segments = new MemorySegment[2];
    final Side[] sides = new Side[2];

    /** Two ranks whose large messages go through the staging areas (the device's default). */
    ProtocolPair()
    {
        this(false);
    }

    /** Two ranks that read large messages straight from each other if {@code directReads}. */
    ProtocolPair(final boolean directReads)
    {
        final SegmentDescriptor layout = new SegmentDescriptor(2, ShmDevice.QUEUE_BYTES);
        for (int rank = 0; rank < 2; rank++)
        {
            segments[rank] = arena.allocate(layout.lengthBytes(), 256);
        }
        for (int rank = 0; rank < 2; rank++)
        {
            sides[rank] = new Side(rank, segments, layout, directReads);
        }
    }

    /** Starts a send from {@code from} to the other rank, as the device does. */
    SendRequest send(final int from, final Buffer buffer, final int tag, final boolean synchronous)
    {
        final int to = 1 - from;
        final MessageBytes bytes = MessageBytes.of(buffer);
        final SendRequest send = new SendRequest(UNDRIVEN, to, tag, 0, sides[from].protocol.nextSequence(to),
            synchronous, bytes.totalBytes() > ShmDevice.EAGER_LIMIT, bytes);
        sides[from].protocol.start(send);
        return send;
    }

    /** Posts a receive on {@code at} for a message from the other rank, as the device does. */
    RecvRequest receive(final int at, final Buffer buffer, final int tag)
    {
        final RecvRequest receive = new RecvRequest(UNDRIVEN, 1 - at, tag, 0, buffer, new Status());
        sides[at].queues.drain(sides[at].protocol);
        final Incoming message = sides[at].matching.post(receive);
        if (message != null)
        {
            sides[at].protocol.bindAndFlush(receive, message);
        }
        return receive;
    }

    /** Reads and writes on both ranks until nothing moves. */
    void pump()
    {
        boolean moved = true;
        while (moved)
        {
            moved = false;
            for (final Side side : sides)
            {
                moved |= side.queues.drain(side.protocol);
                moved |= side.protocol.pumpStaged();
                moved |= side.queues.flushAll();
            }
        }
    }

    @Override
    public void close()
    {
        arena.close();
    }
}
