package kupl;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The check a waiting process runs at intervals: if a process it waits for has died, the wait
 * would never end, so it throws {@link PeerDeathException} naming that rank, its pid and how
 * long this process waited. The first death found by any process sharing the
 * {@link DeadRankRecord} is recorded there, and every waiter names that rank. A
 * {@link DeathWatch} records deaths that no wait found, and calls that never wait read the record
 * ({@link #checkRecorded}).
 *
 * <p>Built from the ranks' {@link ProcessIdentity identities}, so it needs no comm: a comm
 * makes one for its windows ({@link ShmComm#liveness()}), and a layer with its own table of
 * processes can make its own. Immutable; safe to use from any thread.
 */
public final class Liveness
{
    /** Passed as the peer to check every rank but this one (a wait that any of them could end). */
    public static final int ANY_RANK = -1;

    private final List<ProcessIdentity> ranks;
    private final int ownRank;
    private final long ownPid;
    private final DeadRankRecord record;

    /**
     * @param ranks   every rank's identity, by rank.
     * @param ownRank this process's rank among them.
     * @param record  where the first death is recorded for everyone who waits with this process.
     * @throws IllegalArgumentException if {@code ownRank} is not a rank of {@code ranks}.
     */
    public Liveness(final List<ProcessIdentity> ranks, final int ownRank, final DeadRankRecord record)
    {
        this.ranks = List.copyOf(ranks);
        if (ownRank < 0 || ownRank >= this.ranks.size())
        {
            throw new IllegalArgumentException("ownRank=" + ownRank + " is not one of the " + this.ranks.size() +
                " ranks: give 0 to " + (this.ranks.size() - 1));
        }
        this.ownRank = ownRank;
        this.ownPid = ProcessHandle.current().pid();
        this.record = Objects.requireNonNull(record, "record");
    }

    /** The same ranks, recording deaths in {@code record} (a window's control object, for instance). */
    public Liveness withRecord(final DeadRankRecord record)
    {
        return new Liveness(ranks, ownRank, record);
    }

    /** This process's rank. */
    public int ownRank()
    {
        return ownRank;
    }

    /** Number of ranks. */
    public int size()
    {
        return ranks.size();
    }

    /** The identity of {@code rank}. */
    public ProcessIdentity identity(final int rank)
    {
        checkRank(rank);
        return ranks.get(rank);
    }

    /** Whether {@code rank} still runs (for a thread rank of this JVM: whether its thread is alive). */
    public boolean isAlive(final int rank)
    {
        checkRank(rank);
        return ranks.get(rank).isAlive(ownPid);
    }

    /**
     * Throws if the wait can never end because a rank died: one recorded by another waiter
     * first, else {@code peer} (or any rank), which is then recorded.
     *
     * @param peer     the rank waited for, or {@link #ANY_RANK}.
     * @param what     what the caller waits in, for the message ("linear fence #17").
     * @param waitedNs how long it has waited so far.
     * @throws PeerDeathException naming the dead rank.
     */
    public void check(final int peer, final Object what, final long waitedNs)
    {
        if (peer != ANY_RANK)
        {
            checkRank(peer);
        }
        final int recorded = record.firstDeadRank();
        if (recorded >= 0)
        {
            throw foundDeadByAnother(recorded, what, waitedNs);
        }
        final int dead = peer != ANY_RANK ? (isAlive(peer) ? -1 : peer) : firstDeadRank();
        if (dead >= 0)
        {
            final int first = record.record(dead);
            throw first == dead ? death(dead, what, waitedNs) : foundDeadByAnother(first, what, waitedNs);
        }
    }

    /**
     * Throws if a death is recorded, whoever found it (a waiter of any process, or a {@link DeathWatch}): the
     * check of a call that does not wait, such as a lock taken at once or a store into a peer's memory, which
     * would otherwise go on as if the job were whole. One load of the record.
     *
     * @param what the call, for the message ("Win.lock of rank 2").
     * @throws PeerDeathException naming the recorded rank.
     */
    public void checkRecorded(final Object what)
    {
        final int recorded = record.firstDeadRank();
        if (recorded >= 0)
        {
            throw new PeerDeathException(recorded, "rank " + recorded + " died: process " + ranks.get(recorded).pid() +
                " has exited or was killed (a liveness check found it gone); rank " + ownRank +
                " cannot go on with " + what);
        }
    }

    /** Whether a death is recorded: one load. */
    boolean deathRecorded()
    {
        return record.firstDeadRank() >= 0;
    }

    /**
     * As {@link #checkRecorded(Object)}, for a wait: the message says how long it waited.
     *
     * @throws PeerDeathException naming the recorded rank.
     */
    void checkRecorded(final Object what, final long waitedNs)
    {
        final int recorded = record.firstDeadRank();
        if (recorded >= 0)
        {
            throw foundDeadByAnother(recorded, what, waitedNs);
        }
    }

    /**
     * Checks every other rank and records one found dead, unless a death is recorded already; never throws: what
     * {@link DeathWatch} runs at the liveness interval. Where several are dead, one of {@code knownDead} (deaths
     * other records name, first found first) is preferred: ranks that gave up because of a death end soon after
     * it, and the one to name is the death that came first, not the lowest rank.
     *
     * @return the recorded rank, or -1 while every rank lives.
     */
    int recordAnyDeath(final Supplier<? extends Iterable<ProcessIdentity>> knownDead)
    {
        final int recorded = record.firstDeadRank();
        if (recorded >= 0)
        {
            return recorded;
        }
        final int dead = firstDeadRank();
        if (dead < 0)
        {
            return -1;
        }
        // Asked for only once a rank is dead: every tick of every watch would otherwise read every other record.
        for (final ProcessIdentity known : knownDead.get())
        {
            final int rank = rankOf(known);
            if (rank >= 0 && rank != ownRank && !ranks.get(rank).isAlive(ownPid))
            {
                return record.record(rank);
            }
        }
        return record.record(dead);
    }

    /**
     * The rank that {@code identity} (from another comm's table) names here, or -1: another process by its pid and
     * start time (its thread may differ from comm to comm), a thread of this process by its thread as well.
     */
    private int rankOf(final ProcessIdentity identity)
    {
        for (int rank = 0; rank < ranks.size(); rank++)
        {
            final ProcessIdentity candidate = ranks.get(rank);
            if (candidate.pid() == identity.pid() && candidate.startTicks() == identity.startTicks() &&
                (candidate.pid() != ownPid || candidate.threadId() == identity.threadId()))
            {
                return rank;
            }
        }
        return -1;
    }

    /** The identity of the rank recorded dead, or null if none is. */
    ProcessIdentity recordedDeath()
    {
        final int recorded = record.firstDeadRank();
        return recorded < 0 ? null : ranks.get(recorded);
    }

    private int firstDeadRank()
    {
        for (int rank = 0; rank < ranks.size(); rank++)
        {
            if (rank != ownRank && !ranks.get(rank).isAlive(ownPid))
            {
                return rank;
            }
        }
        return -1;
    }

    private PeerDeathException death(final int rank, final Object what, final long waitedNs)
    {
        final ProcessIdentity identity = ranks.get(rank);
        final String who = identity.pid() == ownPid ?
            "its thread (id " + identity.threadId() + ") in this process has ended" :
            "process " + identity.pid() + " has exited or was killed";
        return new PeerDeathException(rank, "rank " + rank + " died: " + who + "; rank " + ownRank +
            " gave up after waiting " + waitedNs / 1_000_000 + " ms in " + what);
    }

    /** The error for a death that another waiter found and recorded. */
    private PeerDeathException foundDeadByAnother(final int rank, final Object what, final long waitedNs)
    {
        return new PeerDeathException(rank, "rank " + rank + " died: another rank waiting with this one, or a " +
            "death watch, found it gone (pid " + ranks.get(rank).pid() + "); rank " + ownRank +
            " gave up after waiting " +
            waitedNs / 1_000_000 + " ms in " + what);
    }

    private void checkRank(final int rank)
    {
        if (rank < 0 || rank >= ranks.size())
        {
            throw new IllegalArgumentException("rank=" + rank + " is not one of the " + ranks.size() +
                " ranks: give 0 to " + (ranks.size() - 1));
        }
    }

    @Override
    public String toString()
    {
        return "Liveness[rank " + ownRank + " of " + ranks.size() + "]";
    }
}
