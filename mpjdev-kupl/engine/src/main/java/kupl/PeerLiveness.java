package kupl;

/**
 * The identities of a comm's ranks, and the check a waiting process runs at intervals:
 * if a process it waits for has died, waiting would never end, so it throws
 * {@link PeerDeathException} naming that rank instead.
 */
final class PeerLiveness
{
    /** Passed as the peer to check every rank (a wait that any of them could end). */
    static final int ANY_RANK = -1;

    private final ProcessIdentity[] ranks;
    private final int ownRank;
    private final long ownPid;

    PeerLiveness(final ProcessIdentity[] ranks, final int ownRank)
    {
        this.ranks = ranks.clone();
        this.ownRank = ownRank;
        this.ownPid = ranks[ownRank].pid();
    }

    int ownRank()
    {
        return ownRank;
    }

    ProcessIdentity identity(final int rank)
    {
        return ranks[rank];
    }

    /**
     * @param peer      the rank waited for, or {@link #ANY_RANK}.
     * @param what      what the caller waits in, for the message ("fence 17 of window ...").
     * @param waitedNs  how long it has waited so far.
     */
    void check(final int peer, final String what, final long waitedNs)
    {
        if (peer != ANY_RANK)
        {
            checkRank(peer, what, waitedNs);
            return;
        }
        for (int rank = 0; rank < ranks.length; rank++)
        {
            if (rank != ownRank)
            {
                checkRank(rank, what, waitedNs);
            }
        }
    }

    /** The error for a death that another process of the window found and recorded. */
    PeerDeathException foundDeadByAnother(final int rank, final String what, final long waitedNs)
    {
        return new PeerDeathException(rank, "rank " + rank + " died: another rank of the window found it gone " +
            "(pid " + ranks[rank].pid() + "); rank " + ownRank + " gave up after waiting " + waitedNs / 1_000_000 +
            " ms in " + what);
    }

    private void checkRank(final int rank, final String what, final long waitedNs)
    {
        final ProcessIdentity identity = ranks[rank];
        if (!identity.isAlive(ownPid))
        {
            final String who = identity.pid() == ownPid ?
                "its thread (id " + identity.threadId() + ") in this process has ended" :
                "process " + identity.pid() + " has exited or was killed";
            throw new PeerDeathException(rank, "rank " + rank + " died: " + who + "; rank " + ownRank +
                " gave up after waiting " + waitedNs / 1_000_000 + " ms in " + what);
        }
    }
}
