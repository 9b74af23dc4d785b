package xdev.shmdev;

import java.lang.foreign.MemorySegment;

import mpjdev.Status;

/**
 * Where a receive puts a message: an {@code mpjbuf.Buffer} that MPJ Express unpacks ({@link BufferReceive}),
 * or a Java array of a basic type ({@link ElementReceive}). Either takes a message in either form (packed by
 * MPJ Express, or array elements as they lay in the sender's array), converting where the forms differ, so
 * that the two kinds of send and receive match each other as MPI requires. Used under the device's lock.
 */
interface ReceiveTarget
{
    /** Why {@code message} cannot be received here (truncated, or of another type), or null if it can. */
    String refusal(Incoming message);

    /** Prepares for {@code message}'s bytes, which {@link #accept} then takes in order. */
    void bind(Incoming message);

    /** Copies payload bytes {@code [position, position + length)} of the bound message from {@code source} at {@code at}. */
    void accept(long position, MemorySegment source, long at, int length);

    /** Native memory the bound message's static bytes may be read into straight from the sender, or null. */
    MemorySegment directTarget(Incoming message);

    /**
     * Completes the bound message once every byte has arrived: converts it where needed and fills {@code status}.
     *
     * @throws xdev.XDevException if the message's contents do not fit what was announced.
     */
    void finish(Incoming message, Status status);

    /** The room it has, for error messages. */
    String describeRoom();
}
