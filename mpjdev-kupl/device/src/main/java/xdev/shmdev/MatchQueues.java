package xdev.shmdev;

import java.util.ArrayList;
import java.util.List;

/**
 * MPI's matching: the posted receives, in the order they were posted, and the unexpected
 * messages, in the order their envelopes arrived. A message takes the first posted receive it
 * fits; a receive takes the first unexpected message it fits. One sender's envelopes arrive in
 * the order it sent them (its records keep their order in the receiver's queue), so messages do
 * not overtake each other.
 * Used under the device's lock.
 */
final class MatchQueues
{
    private final List<RecvRequest> posted = new ArrayList<>();
    private final List<Incoming> unexpected = new ArrayList<>();

    /**
     * A new envelope: returns the first posted receive it fits, no longer posted; or keeps the
     * message as unexpected and returns null.
     */
    RecvRequest arrive(final Incoming message)
    {
        // Indexed loops here and below: no iterator made per message.
        for (int i = 0; i < posted.size(); i++)
        {
            final RecvRequest receive = posted.get(i);
            if (receive.matches(message))
            {
                posted.remove(i);
                return receive;
            }
        }
        unexpected.add(message);
        return null;
    }

    /**
     * A new receive: returns the first unexpected message it fits, no longer unexpected; or
     * posts the receive and returns null.
     */
    Incoming post(final RecvRequest receive)
    {
        final Incoming message = takeUnexpected(receive.source, receive.tag, receive.context);
        if (message == null)
        {
            posted.add(receive);
        }
        return message;
    }

    /**
     * Takes back a posted receive that nothing has matched yet: a receive from any rank that a message from
     * another node matched first ({@link NetworkReceives}).
     *
     * @return whether it was still posted.
     */
    boolean retract(final RecvRequest receive)
    {
        return posted.remove(receive);
    }

    /** The first unexpected message from {@code source} (or any) with {@code tag} (or any) and {@code context}. */
    Incoming peekUnexpected(final int source, final int tag, final int context)
    {
        final int index = indexOfUnexpected(source, tag, context);
        return index < 0 ? null : unexpected.get(index);
    }

    private int indexOfUnexpected(final int source, final int tag, final int context)
    {
        for (int i = 0; i < unexpected.size(); i++)
        {
            if (RecvRequest.matches(source, tag, context, unexpected.get(i)))
            {
                return i;
            }
        }
        return -1;
    }

    /** As {@link #peekUnexpected}, and no longer unexpected. */
    Incoming takeUnexpected(final int source, final int tag, final int context)
    {
        final int index = indexOfUnexpected(source, tag, context);
        return index < 0 ? null : unexpected.remove(index);
    }
}
