package xdev.shmdev;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import xdev.XDevException;

/**
 * Messages in flight between this rank and each peer, by sequence number: the sends waiting for
 * their receiver's answer, or the messages whose bytes are still arriving. A record naming a
 * sequence number the table does not hold is a clear {@link XDevException} naming the peer, the
 * record and the number, never a null dereference.
 *
 * @param <T> what is kept per message.
 */
final class SequenceTable<T>
{
    private final int ownRank;
    private final String what;
    private final List<Map<Integer, T>> byPeer;

    /**
     * @param ownRank this process's rank, for messages.
     * @param peers   ranks of the job.
     * @param what    what the table holds, for messages ("send", "message").
     */
    SequenceTable(final int ownRank, final int peers, final String what)
    {
        this.ownRank = ownRank;
        this.what = what;
        this.byPeer = new ArrayList<>(peers);
        for (int peer = 0; peer < peers; peer++)
        {
            byPeer.add(new HashMap<>());
        }
    }

    void put(final int peer, final int sequence, final T value)
    {
        final T previous = byPeer.get(peer).putIfAbsent(sequence, value);
        if (previous != null)
        {
            throw new IllegalStateException(what + " " + sequence + " with rank " + peer + " is in flight already");
        }
    }

    /**
     * The entry for {@code sequence} with {@code peer}.
     *
     * @param record the kind of record that names it, for the error.
     * @throws XDevException if there is none.
     */
    T get(final int peer, final int sequence, final String record)
    {
        final T value = byPeer.get(peer).get(sequence);
        if (value == null)
        {
            throw unknown(peer, sequence, record);
        }
        return value;
    }

    /** As {@link #get}, and forgets the entry. */
    T take(final int peer, final int sequence, final String record)
    {
        final T value = byPeer.get(peer).remove(sequence);
        if (value == null)
        {
            throw unknown(peer, sequence, record);
        }
        return value;
    }

    /** Forgets the entry for {@code sequence} with {@code peer}, if there is one. */
    void remove(final int peer, final int sequence)
    {
        byPeer.get(peer).remove(sequence);
    }

    int size(final int peer)
    {
        return byPeer.get(peer).size();
    }

    private XDevException unknown(final int peer, final int sequence, final String record)
    {
        return new XDevException("shm device: rank " + ownRank + " got a record of kind " + record + " from rank " +
            peer + " for " + what + " " + sequence + ", which is not in flight (corrupted queue or protocol error)");
    }
}
