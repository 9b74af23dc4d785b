package xdev.shmdev;

import xdev.XDevException;

/**
 * Messages in flight between this rank and each peer, by sequence number: the sends waiting for
 * their receiver's answer, or the messages whose bytes are still arriving. A record naming a
 * sequence number the table does not hold is a clear {@link XDevException} naming the peer, the
 * record and the number, never a null dereference.
 *
 * <p>Each peer's entries are an open-addressing table keyed by the sequence number itself: one peer's numbers
 * are consecutive, so they fall into consecutive slots, and putting, finding and removing one makes no object
 * (no boxed key, no map node) on a path every message takes.
 *
 * @param <T> what is kept per message.
 */
final class SequenceTable<T>
{
    private static final int INITIAL_SLOTS = 8;

    private final int ownRank;
    private final String what;
    private final Slots[] byPeer;

    /**
     * @param ownRank this process's rank, for messages.
     * @param peers   ranks of the job.
     * @param what    what the table holds, for messages ("send", "message").
     */
    SequenceTable(final int ownRank, final int peers, final String what)
    {
        this.ownRank = ownRank;
        this.what = what;
        this.byPeer = new Slots[peers];
        for (int peer = 0; peer < peers; peer++)
        {
            byPeer[peer] = new Slots();
        }
    }

    void put(final int peer, final int sequence, final T value)
    {
        if (!byPeer[peer].putIfAbsent(sequence, value))
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
        final Slots slots = byPeer[peer];
        final int slot = slots.find(sequence);
        if (slot < 0)
        {
            throw unknown(peer, sequence, record);
        }
        return value(slots, slot);
    }

    /** As {@link #get}, and forgets the entry. */
    T take(final int peer, final int sequence, final String record)
    {
        final T value = get(peer, sequence, record);
        remove(peer, sequence);
        return value;
    }

    /** Forgets the entry for {@code sequence} with {@code peer}, if there is one. */
    void remove(final int peer, final int sequence)
    {
        final Slots slots = byPeer[peer];
        final int slot = slots.find(sequence);
        if (slot >= 0)
        {
            slots.removeAt(slot);
        }
    }

    int size(final int peer)
    {
        return byPeer[peer].size;
    }

    @SuppressWarnings("unchecked")
    private T value(final Slots slots, final int slot)
    {
        return (T)slots.values[slot];
    }

    private XDevException unknown(final int peer, final int sequence, final String record)
    {
        return new XDevException("shm device: rank " + ownRank + " got a record of kind " + record + " from rank " +
            peer + " for " + what + " " + sequence + ", which is not in flight (corrupted queue or protocol error)");
    }

    /** One peer's entries: linear probing from {@code sequence & mask}; a null value is an empty slot. */
    private static final class Slots
    {
        int[] keys = new int[INITIAL_SLOTS];
        Object[] values = new Object[INITIAL_SLOTS];
        int size;

        int find(final int key)
        {
            final int mask = keys.length - 1;
            for (int slot = key & mask; values[slot] != null; slot = (slot + 1) & mask)
            {
                if (keys[slot] == key)
                {
                    return slot;
                }
            }
            return -1;
        }

        boolean putIfAbsent(final int key, final Object value)
        {
            if (find(key) >= 0)
            {
                return false;
            }
            if (2 * (size + 1) > keys.length)
            {
                grow();
            }
            insert(key, value);
            size++;
            return true;
        }

        /** Empties {@code slot}, moving later entries of its run back so that every one stays findable. */
        void removeAt(final int slot)
        {
            final int mask = keys.length - 1;
            int hole = slot;
            for (int next = (hole + 1) & mask; values[next] != null; next = (next + 1) & mask)
            {
                final int home = keys[next] & mask;
                // The entry at next may fill the hole unless its home lies cyclically in (hole, next].
                if (((next - home) & mask) >= ((next - hole) & mask))
                {
                    keys[hole] = keys[next];
                    values[hole] = values[next];
                    hole = next;
                }
            }
            values[hole] = null;
            size--;
        }

        private void insert(final int key, final Object value)
        {
            final int mask = keys.length - 1;
            int slot = key & mask;
            while (values[slot] != null)
            {
                slot = (slot + 1) & mask;
            }
            keys[slot] = key;
            values[slot] = value;
        }

        private void grow()
        {
            final int[] oldKeys = keys;
            final Object[] oldValues = values;
            keys = new int[oldKeys.length * 2];
            values = new Object[oldValues.length * 2];
            for (int slot = 0; slot < oldKeys.length; slot++)
            {
                if (oldValues[slot] != null)
                {
                    insert(oldKeys[slot], oldValues[slot]);
                }
            }
        }
    }
}
