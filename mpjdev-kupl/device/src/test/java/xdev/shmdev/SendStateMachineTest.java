package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import xdev.XDevException;
import xdev.shmdev.SendStateMachine.Phase;

/** Every legal path of {@link SendStateMachine}, and a clear error for each illegal event. */
class SendStateMachineTest
{
    private static final int PEER = 3;
    private static final int SEQUENCE = 17;

    @Test
    void shouldFinishAnEagerSendOnceEveryByteIsWritten()
    {
        final SendStateMachine send = new SendStateMachine(PEER, SEQUENCE, false, false, 100);
        send.envelopeWritten(40);
        assertEquals(Phase.WRITING_DATA, send.phase());
        assertFalse(send.isFinished());
        send.dataWritten(60);
        assertEquals(Phase.WRITTEN, send.phase());
        assertTrue(send.isFinished());
    }

    @Test
    void shouldFinishAnEagerSendWhoseEnvelopeCarriesEveryByte()
    {
        final SendStateMachine send = new SendStateMachine(PEER, SEQUENCE, false, false, 10);
        send.envelopeWritten(10);
        assertTrue(send.isFinished());
        final SendStateMachine empty = new SendStateMachine(PEER, SEQUENCE, false, false, 0);
        empty.envelopeWritten(0);
        assertTrue(empty.isFinished());
    }

    @Test
    void shouldFinishASynchronousEagerSendOnlyOnceAcknowledged()
    {
        final SendStateMachine early = new SendStateMachine(PEER, SEQUENCE, true, false, 100);
        early.envelopeWritten(40);
        early.acknowledged();
        assertFalse(early.isFinished(), "acknowledged, but bytes are still to be written");
        early.dataWritten(60);
        assertTrue(early.isFinished());

        final SendStateMachine late = new SendStateMachine(PEER, SEQUENCE, true, false, 100);
        late.envelopeWritten(100);
        assertFalse(late.isFinished(), "written, but not yet matched");
        late.acknowledged();
        assertTrue(late.isFinished());
    }

    @Test
    void shouldStreamARendezvousSendAfterClearToSend()
    {
        final SendStateMachine send = new SendStateMachine(PEER, SEQUENCE, true, true, 1000);
        send.envelopeWritten(0);
        assertEquals(Phase.AWAITING_RECEIVER, send.phase());
        send.clearToSend();
        assertEquals(Phase.WRITING_DATA, send.phase());
        send.dataWritten(600);
        assertFalse(send.isFinished());
        send.dataWritten(400);
        assertTrue(send.isFinished(), "the clear-to-send was the synchronous send's match");
    }

    @Test
    void shouldFinishARendezvousSendThatTheReceiverReadDirectly()
    {
        final SendStateMachine send = new SendStateMachine(PEER, SEQUENCE, false, true, 1000);
        send.envelopeWritten(0);
        send.readDirectly();
        assertEquals(1000, send.written());
        assertTrue(send.isFinished());
    }

    @Test
    void shouldFinishALocalSynchronousSendWhenMatched()
    {
        final SendStateMachine send = new SendStateMachine(PEER, SEQUENCE, true, false, 50);
        send.deliveredLocally();
        assertFalse(send.isFinished());
        send.acknowledged();
        assertTrue(send.isFinished());
    }

    @Test
    void shouldRejectAnAcknowledgementOfASendThatAskedForNone()
    {
        final SendStateMachine send = new SendStateMachine(PEER, SEQUENCE, false, false, 100);
        send.envelopeWritten(100);
        final XDevException error = assertThrows(XDevException.class, send::acknowledged);
        assertEquals("shm device: acknowledgement is not allowed for message 17 to rank 3 in phase WRITTEN (eager, " +
            "100 of 100 bytes written): corrupted queue or protocol error", error.getMessage());
    }

    @Test
    void shouldRejectEventsOutOfOrder()
    {
        final SendStateMachine eager = new SendStateMachine(PEER, SEQUENCE, true, false, 100);
        assertThrows(XDevException.class, () -> eager.dataWritten(10), "data before the envelope");
        assertThrows(XDevException.class, eager::acknowledged, "acknowledged before the envelope was written");
        eager.envelopeWritten(40);
        assertThrows(XDevException.class, () -> eager.envelopeWritten(40), "a second envelope");
        assertThrows(XDevException.class, eager::clearToSend, "clear-to-send for an eager message");
        assertThrows(XDevException.class, eager::readDirectly, "read of an eager message");
        assertThrows(XDevException.class, () -> eager.dataWritten(61), "more bytes than the message has");
        eager.acknowledged();
        assertThrows(XDevException.class, eager::acknowledged, "a second acknowledgement");

        final SendStateMachine rendezvous = new SendStateMachine(PEER, SEQUENCE, false, true, 1000);
        assertThrows(XDevException.class, rendezvous::clearToSend, "clear-to-send before the envelope");
        assertThrows(XDevException.class, () -> rendezvous.envelopeWritten(10), "bytes in a rendezvous envelope");
        rendezvous.envelopeWritten(0);
        rendezvous.clearToSend();
        assertThrows(XDevException.class, rendezvous::clearToSend, "a second clear-to-send");
        assertThrows(XDevException.class, rendezvous::readDirectly, "read after clear-to-send");
        assertThrows(XDevException.class, rendezvous::acknowledged, "acknowledgement of a rendezvous message");
    }

    @Test
    void shouldNameThePeerTheSequenceAndThePhaseInEveryError()
    {
        final SendStateMachine send = new SendStateMachine(PEER, SEQUENCE, true, true, 1000);
        final XDevException error = assertThrows(XDevException.class, send::readDirectly);
        assertTrue(error.getMessage().contains("message 17 to rank 3 in phase ENVELOPE_QUEUED"), error.getMessage());
        assertTrue(error.getMessage().contains("synchronous rendezvous"), error.getMessage());
    }
}
