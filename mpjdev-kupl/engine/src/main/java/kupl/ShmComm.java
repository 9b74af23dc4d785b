package kupl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;

/**
 * A group of processes on one node that can allocate shared windows together
 * ({@code kupl_shm_comm_h}). Built collectively from out-of-band callbacks; every later
 * exchange goes through shared memory, except window allocation, which uses the callbacks
 * again to agree on sizes and hand over segments.
 *
 * <p>Creation checks that the processes really share this node (same kernel boot, every
 * pid visible here) and records each rank's identity, so that a process waiting in a fence
 * notices when another has died. The ranks may be processes or threads of one JVM.
 */
public final class ShmComm implements AutoCloseable
{
    private static final int IDENTITY_RECORD_BYTES = 8 * 6;

    private final int size;
    private final int rank;
    private final KuplConfig config;
    private final OobExchange oob;
    private final Liveness liveness;
    private final Set<ShmWin> windows = Collections.newSetFromMap(new IdentityHashMap<>());
    private final WindowMemoryCache memoryCache = new WindowMemoryCache();
    private boolean destroyed;

    private ShmComm(final int size, final int rank, final KuplConfig config, final OobExchange oob,
        final Liveness liveness)
    {
        this.size = size;
        this.rank = rank;
        this.config = config;
        this.oob = oob;
        this.liveness = liveness;
    }

    /**
     * Builds a comm; collective over {@code group} ({@code kupl_shm_comm_create}), with the
     * settings of this process's environment.
     *
     * @param size   number of processes.
     * @param rank   this process's rank, 0 to size-1.
     * @param pid    this process's id (as {@code getpid()} returns it).
     * @param oob    the out-of-band allgather and barrier.
     * @param group  passed unchanged to the callbacks (an MPI communicator in the KUPL examples).
     * @throws KuplException on every process if the arguments or the processes do not fit together.
     */
    public static ShmComm create(final int size, final int rank, final long pid, final OobCallbacks oob,
        final Object group)
    {
        return create(size, rank, pid, oob, group, KuplConfig.fromEnvironment());
    }

    /** As {@link #create(int, int, long, OobCallbacks, Object)}, with explicit settings. */
    public static ShmComm create(final int size, final int rank, final long pid, final OobCallbacks oob,
        final Object group, final KuplConfig config)
    {
        Objects.requireNonNull(oob, "oob callbacks");
        Objects.requireNonNull(config, "config");
        if (size < 1)
        {
            throw new KuplException("comm size=" + size + " must be at least 1");
        }
        if (rank < 0 || rank >= size)
        {
            throw new KuplException("rank=" + rank + " is outside the comm: give 0 to " + (size - 1));
        }
        // From here on every failure is agreed with the other processes, so none is left waiting.
        final OobExchange exchange = new OobExchange(oob, group, size, rank);
        final ProcessIdentity self = ProcessIdentity.current();
        final long bootId = bootIdHash();
        final byte[] record = ByteBuffer.allocate(IDENTITY_RECORD_BYTES).order(ByteOrder.LITTLE_ENDIAN)
            .putLong(((long)size << 32) | rank).putLong(self.pid()).putLong(self.startTicks())
            .putLong(self.threadId()).putLong(bootId).putLong(pid).array();
        final ByteBuffer[] records = exchange.exchange("comm create (exchange of identities)", record,
            pid == self.pid() ? null : "pid argument " + pid + " is not this process's id " + self.pid());

        final ProcessIdentity[] identities = new ProcessIdentity[size];
        String problem = null;
        for (int peer = 0; peer < size && problem == null; peer++)
        {
            final ByteBuffer peerRecord = records[peer];
            final long shape = peerRecord.getLong(0);
            identities[peer] = new ProcessIdentity(peerRecord.getLong(8), peerRecord.getLong(16),
                peerRecord.getLong(24));
            if (shape != (((long)size << 32) | peer))
            {
                problem = "the process in slot " + peer + " of the allgather says it is rank " + (int)shape +
                    " of " + (shape >>> 32) + ": every process must pass the same size and its own rank";
            }
            else if (peerRecord.getLong(32) != bootId)
            {
                problem = "rank " + peer + " runs on another node (different kernel boot id): a comm's processes " +
                    "must share one node's memory";
            }
            else if (ProcessIdentity.startTicks(identities[peer].pid()) != identities[peer].startTicks())
            {
                problem = "rank " + peer + " (pid " + identities[peer].pid() + ") is not visible from rank " + rank +
                    ": a comm's processes must share one node and pid namespace";
            }
        }
        exchange.agree("comm create (checking the processes)", problem);
        // From here on a failed out-of-band step looks for a dead rank, to name it as the cause.
        final Liveness liveness = new Liveness(Arrays.asList(identities), rank, DeadRankRecord.processLocal());
        return new ShmComm(size, rank, config,
            exchange.watching(Waiter.fromConfig(config, liveness), config.livenessIntervalNs()), liveness);
    }

    /** Number of processes ({@code kupl_shm_comm_size}). */
    public int size()
    {
        checkUsable();
        return size;
    }

    /** This process's rank ({@code kupl_shm_comm_rank}). */
    public int rank()
    {
        checkUsable();
        return rank;
    }

    /** The settings every window of this comm is allocated with. */
    public KuplConfig config()
    {
        return config;
    }

    /** Process id of {@code peer}. */
    public long pid(final int peer)
    {
        checkUsable();
        checkRank(peer);
        return liveness.identity(peer).pid();
    }

    /**
     * Whether process {@code peer} still runs (for a thread rank of this JVM: whether its thread
     * is alive). A process that waits for a peer by other means than a fence (a message queue in
     * a window) checks this at intervals, so that a dead peer is an error, never a hang.
     */
    public boolean isAlive(final int peer)
    {
        checkRank(peer);
        return liveness.isAlive(peer);
    }

    /**
     * Allocates a window with a segment of {@code sizeBytes} for this process; collective
     * ({@code kupl_shm_win_alloc}). Sizes may differ between processes and may be zero.
     *
     * @param contiguous lay the segments back to back in rank order (see {@link ShmInfoFlag#IS_CONTIG}).
     * @throws KuplException on every process if any process could not allocate.
     */
    public ShmWin allocate(final long sizeBytes, final boolean contiguous)
    {
        checkUsable();
        final ShmWin win = WindowAllocation.allocate(this, sizeBytes, contiguous);
        synchronized (windows)
        {
            windows.add(win);
        }
        return win;
    }

    /**
     * Step one of an allocation whose arguments the caller agrees on itself (an MPI library,
     * which exchanges every process's arguments anyway): returns the number of the memory this
     * comm keeps from its last freed window (0 if none), which the caller exchanges along with its
     * arguments and hands, from every process, to {@link #allocate(long[], boolean, long[])}.
     * On rank 0 it also gets that memory ready for reuse, so that the allocation needs no
     * exchange of its own when every process holds it and the segments fit.
     */
    public long keptMemoryId()
    {
        checkUsable();
        try
        {
            final WindowMemory kept = WindowAllocation.prepareReuse(this);
            return kept == null ? 0 : kept.id();
        }
        catch (final KuplException e)
        {
            // A process died before freeing the last window (the memory is released): the allocation
            // takes the path that exchanges outcomes, where that death is reported.
            return 0;
        }
    }

    /**
     * Allocates a window whose arguments every process has already exchanged; collective. Every
     * process passes the same arrays: each process's segment size and what
     * {@link #keptMemoryId()} returned on it, both indexed by rank, and the same contiguity. If
     * every process keeps the same memory and every segment fits in it, the window reuses it
     * without any out-of-band exchange; otherwise this allocates as
     * {@link #allocate(long, boolean)} does.
     *
     * @throws KuplException on every process if any process could not allocate.
     */
    public ShmWin allocate(final long[] sizesBytes, final boolean contiguous, final long[] keptIds)
    {
        checkUsable();
        final ShmWin win = WindowAllocation.allocateAgreed(this, sizesBytes.clone(), contiguous, keptIds.clone());
        synchronized (windows)
        {
            windows.add(win);
        }
        return win;
    }

    /**
     * Destroys the comm; collective ({@code kupl_shm_comm_destroy}). Every window must have
     * been freed first.
     */
    @Override
    public void close()
    {
        checkUsable();
        final int open;
        synchronized (windows)
        {
            open = windows.size();
        }
        if (open > 0)
        {
            throw new KuplException("comm of rank " + rank + " still has " + open +
                " window(s) allocated: free every window before destroying its comm");
        }
        destroyed = true;
        memoryCache.release();
        oob.barrier("comm destroy");
    }

    /** Whether {@link #close()} has run. */
    public boolean isDestroyed()
    {
        return destroyed;
    }

    OobExchange oob()
    {
        return oob;
    }

    /**
     * The liveness check of this comm's ranks, recording deaths in this process only: a
     * window shares its record through its control object ({@link Liveness#withRecord}), and
     * so can a layer that waits on memory of its own.
     */
    public Liveness liveness()
    {
        return liveness;
    }

    int rankUnchecked()
    {
        return rank;
    }

    int sizeUnchecked()
    {
        return size;
    }

    WindowMemoryCache memoryCache()
    {
        return memoryCache;
    }

    /**
     * Forgets a freed window; keeps its memory for the next window if every process finished with
     * it ({@code reusable}) and the comm lives on, else unmaps it.
     */
    void windowFreed(final ShmWin win, final WindowMemory memory, final boolean reusable)
    {
        synchronized (windows)
        {
            windows.remove(win);
        }
        if (reusable && !destroyed)
        {
            memoryCache.keep(memory);
        }
        else
        {
            memory.close();
        }
    }

    void checkRank(final int peer)
    {
        if (peer < 0 || peer >= size)
        {
            throw new KuplException("rank=" + peer + " is outside the comm: give 0 to " + (size - 1));
        }
    }

    private void checkUsable()
    {
        if (destroyed)
        {
            throw new KuplException("the comm has been destroyed");
        }
    }

    private static long bootIdHash()
    {
        try
        {
            final byte[] id = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim()
                .getBytes(StandardCharsets.US_ASCII);
            long hash = 1125899906842597L;
            for (final byte b : id)
            {
                hash = 31 * hash + b;
            }
            return hash;
        }
        catch (final IOException e)
        {
            throw new KuplException("cannot read /proc/sys/kernel/random/boot_id: the engine needs Linux's /proc", e);
        }
    }

    @Override
    public String toString()
    {
        return "ShmComm[rank " + rank + " of " + size + (destroyed ? ", destroyed" : "") + "]";
    }
}
