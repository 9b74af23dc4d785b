package xdev.shmdev;

import java.util.ArrayList;
import java.util.Iterator;
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
        for (final Iterator<RecvRequest> receives = posted.iterator(); receives.hasNext(); )
        {
            final RecvRequest receive = receives.next();
            if (receive.matches(message))
            {
                receives.remove();
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
        for (final Incoming message : unexpected)
        {
            if (RecvRequest.matches(source, tag, context, message))
            {
                return message;
            }
        }
        return null;
    }

    /** As {@link #peekUnexpected}, and no longer unexpected. */
    Incoming takeUnexpected(final int source, final int tag, final int context)
    {
        final Incoming message = peekUnexpected(source, tag, context);
        if (message != null)
        {
            unexpected.remove(message);
        }
        return message;
    }
}
