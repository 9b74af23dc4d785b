package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import mpjdev.Status;
import org.junit.jupiter.api.Test;
import xdev.Device;

/** MPI's matching order in {@link MatchQueues}: posting order, arrival order, wildcards, contexts. */
class MatchQueuesTest
{
    private static final int CONTEXT = 3;

    private final MatchQueues queues = new MatchQueues();

    @Test
    void shouldGiveAnArrivingMessageToTheFirstPostedReceiveThatFits()
    {
        final RecvRequest fromTwo = receive(2, 5);
        final RecvRequest anySource = receive(RecvRequest.ANY, 5);
        final RecvRequest anyTag = receive(1, Device.ANY_TAG);
        assertNull(queues.post(fromTwo));
        assertNull(queues.post(anySource));
        assertNull(queues.post(anyTag));
        assertSame(anySource, queues.arrive(message(1, 0, 5, CONTEXT)));
        assertSame(anyTag, queues.arrive(message(1, 1, 5, CONTEXT)));
        assertSame(fromTwo, queues.arrive(message(2, 0, 5, CONTEXT)));
    }

    @Test
    void shouldGiveAPostedReceiveTheFirstUnexpectedMessageThatFits()
    {
        final Incoming first = message(1, 0, 5, CONTEXT);
        final Incoming second = message(1, 1, 5, CONTEXT);
        assertNull(queues.arrive(first));
        assertNull(queues.arrive(second));
        assertSame(first, queues.post(receive(1, 5)));
        assertSame(second, queues.post(receive(RecvRequest.ANY, Device.ANY_TAG)));
        assertNull(queues.peekUnexpected(RecvRequest.ANY, Device.ANY_TAG, CONTEXT));
    }

    @Test
    void shouldNeverMatchAcrossContexts()
    {
        assertNull(queues.arrive(message(1, 0, 5, CONTEXT + 1)));
        assertNull(queues.post(receive(RecvRequest.ANY, Device.ANY_TAG)));
        final Incoming inContext = message(1, 1, 5, CONTEXT);
        final RecvRequest posted = queues.arrive(inContext);
        assertEquals(RecvRequest.ANY, posted.source);
    }

    @Test
    void shouldLeaveAPeekedMessageUnexpected()
    {
        final Incoming message = message(2, 0, 9, CONTEXT);
        queues.arrive(message);
        assertSame(message, queues.peekUnexpected(2, 9, CONTEXT));
        assertNull(queues.peekUnexpected(1, 9, CONTEXT));
        assertSame(message, queues.takeUnexpected(RecvRequest.ANY, 9, CONTEXT));
        assertNull(queues.takeUnexpected(RecvRequest.ANY, 9, CONTEXT));
    }

    private static RecvRequest receive(final int source, final int tag)
    {
        return new RecvRequest(ProtocolPair.UNDRIVEN, source, tag, CONTEXT, Messages.empty(64), new Status());
    }

    private static Incoming message(final int source, final int sequence, final int tag, final int context)
    {
        return new Incoming(source, sequence, tag, context, 8, 0, 2, 1, false, false, false, 0);
    }
}
