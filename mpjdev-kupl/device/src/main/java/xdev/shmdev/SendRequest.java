package xdev.shmdev;

import mpjdev.Status;

/**
 * One message on its way out: its bytes ({@link MessageBytes}), the envelope fields, and the
 * protocol it follows ({@link SendStateMachine}, which alone changes its protocol state).
 *
 * <p>Complete once every byte is in the queue (the buffer is then reusable) and, for a
 * synchronous send, once the receiver has matched it: an acknowledgement for an eager message,
 * the clear-to-send for a rendezvous one.
 */
final class SendRequest extends ShmRequest
{
    // Not final: a thread's blocking sends reuse one request (restart); set before the device sees it each time.
    int destination;
    int tag;
    int context;
    int sequence;
    boolean synchronous;
    boolean rendezvous;
    MessageBytes bytes;
    /** Whether the receiver may copy the bytes straight from this process ({@link ProcessMemory}). */
    boolean readable;
    final SendStateMachine protocol;

    SendRequest(final RequestDriver driver, final int destination, final int tag, final int context,
        final int sequence, final boolean synchronous, final boolean rendezvous, final MessageBytes bytes)
    {
        super(driver, new Status(destination, tag, -1));
        this.protocol = new SendStateMachine(destination, sequence, synchronous, rendezvous, bytes.totalBytes());
        set(destination, tag, context, sequence, synchronous, rendezvous, bytes);
    }

    /**
     * This request, waited for, as a new send (a thread's blocking sends, {@link ArrayMessages}): no object made.
     * Never for a send to this very process, whose message keeps its send until a receive matches it.
     */
    void restart(final int destination, final int tag, final int context, final int sequence,
        final boolean synchronous, final boolean rendezvous, final MessageBytes bytes)
    {
        restart();
        protocol.restart(destination, sequence, synchronous, rendezvous, bytes.totalBytes());
        status.source = destination;
        status.tag = tag;
        set(destination, tag, context, sequence, synchronous, rendezvous, bytes);
    }

    private void set(final int destination, final int tag, final int context, final int sequence,
        final boolean synchronous, final boolean rendezvous, final MessageBytes bytes)
    {
        this.destination = destination;
        this.tag = tag;
        this.context = context;
        this.sequence = sequence;
        this.synchronous = synchronous;
        this.rendezvous = rendezvous;
        this.bytes = bytes;
        // Only a static section in native memory (a direct buffer) has an address that stays put.
        this.readable = rendezvous && bytes.isNative() && bytes.dynamicBytes() == 0;
    }

    /** Address of the static section in this process, for a receiver's direct read; 0 if not readable. */
    long staticAddress()
    {
        return readable ? bytes.staticData().address() : 0;
    }

    long totalBytes()
    {
        return bytes.totalBytes();
    }

    /** Whether nothing more is needed for completion. */
    boolean isFinished()
    {
        return protocol.isFinished();
    }

    @Override
    String describe()
    {
        return (synchronous ? "a synchronous send" : "a send") + " of " + totalBytes() + " bytes to rank " +
            destination + " (tag " + tag + ", context " + context + ")";
    }
}
