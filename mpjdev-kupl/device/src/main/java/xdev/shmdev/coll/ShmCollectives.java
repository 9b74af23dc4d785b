package xdev.shmdev.coll;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import kupl.KuplException;
import kupl.PeerDeathException;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPIException;
import mpi.Op;
import mpjdev.javampjdev.MPJDev;
import xdev.XDevException;
import xdev.shmdev.ClusterShmDevice;
import xdev.shmdev.ShmDevice;

/**
 * MPJ Express's {@code Intracomm} collectives through shared memory, for ranks that run on the {@code shm}
 * device (all on one node). The kupl agent calls these at the start of the MPJ Express methods of the same
 * names; each returns {@code true} when it has done the call, and {@code false} when MPJ Express's own
 * algorithm (point-to-point messages) must run instead. That decision is the same on every rank of the
 * communicator: it is taken from what all ranks wrote into shared memory before a fence or flag round.
 *
 * <p><b>What runs here, and what is left to MPJ Express</b>
 * <table>
 * <caption>Intracomm collectives on -dev shm</caption>
 * <tr><th>collective</th><th>here</th><th>left to MPJ Express, and why</th></tr>
 * <tr><td>Barrier</td><td>the engine's fence</td><td>-</td></tr>
 * <tr><td>Bcast</td><td>one copy in, N-1 copies out, pipelined chunks</td><td>see "every collective"</td></tr>
 * <tr><td>Reduce, Allreduce</td><td>staged vectors combined in MPJ Express's tree order by its own
 *     operator code (short numeric vectors under SUM, PROD, MAX, MIN: by that code written out, straight
 *     from the slots); long vectors in parallel slices</td><td>non-zero offsets (MPJ 0.44 reduces only elements
 *     offset..count-1 there), the flat-tree configuration, vectors over a slot</td></tr>
 * <tr><td>Gather, Allgather, Scatter, Alltoall</td><td>direct copies through each rank's slot</td>
 *     <td>non-zero offsets (MPJ 0.44 places blocks its own way there), a send type other than the receive
 *     type, blocks over a slot</td></tr>
 * <tr><td>Gatherv, Scatterv, Allgatherv, Alltoallv</td><td>-</td><td>per-rank counts and displacements
 *     would need a second exchange to agree on sizes; kept to MPJ Express for now</td></tr>
 * <tr><td>Scan, Reduce_scatter</td><td>-</td><td>MPJ Express combines these in other orders (a chain, a
 *     Reduce then Scatterv); matching them bit for bit needs their own trees</td></tr>
 * <tr><td>every collective</td><td>-</td><td>MPI.OBJECT, derived datatypes, buffers that are not arrays of
 *     the datatype's Java type, intercommunicators (not an {@code Intracomm})</td></tr>
 * </table>
 *
 * <p>Settings: {@value #ENABLED_PROPERTY}{@code =off} turns the shared-memory path off (MPJ Express's
 * algorithms then run over the device's messages); {@value #SLOT_BYTES_PROPERTY} sets the bytes of a staging
 * slot (default {@value #DEFAULT_SLOT_BYTES}; each rank maps two per communicator used in collectives).
 *
 * <p>Threads: as MPJ Express 0.44 itself, one thread per rank calls collectives on a communicator.
 * Failures: a rank that dies makes the others fail in the engine's fence or wait, with MPJ Express's
 * {@link MPIException} whose cause chain holds the engine's exception naming the rank ({@link CollectiveExceptions}).
 */
public final class ShmCollectives
{
    /** System property: {@code off} leaves every collective to MPJ Express. */
    public static final String ENABLED_PROPERTY = "kupl.coll";
    /** System property: bytes of one staging slot. */
    public static final String SLOT_BYTES_PROPERTY = "kupl.coll.slotBytes";
    /** Default bytes of one staging slot: a 1 MiB Bcast in one phase, or 8 ranks' 128 KiB blocks. */
    public static final long DEFAULT_SLOT_BYTES = 1024 * 1024;

    /** Marks a communicator whose shared memory could not be set up: MPJ Express runs its collectives. */
    private static final CommCollectives UNAVAILABLE_MARK = null;
    /** Set while this thread is inside the engine's bootstrap, whose MPJ Express collectives must run as is. */
    private static final ThreadLocal<Boolean> BOOTSTRAPPING = ThreadLocal.withInitial(() -> Boolean.FALSE);
    /** Per communicator, in the order their collectives were first called (freed in that order at Finalize). */
    private static final Map<Comm, CommCollectives> COMMS = new IdentityHashMap<>();
    private static final List<Comm> CREATED = new ArrayList<>();
    /** On a device whose jobs span nodes: each communicator's shape, and the two-level collectives of those that need them. */
    private static final Map<Comm, TwoLevelCollectives.Shape> SHAPES = new IdentityHashMap<>();
    private static final Map<Comm, TwoLevelCollectives> TWO_LEVEL = new IdentityHashMap<>();
    private static final AtomicLong HANDLED_CALLS = new AtomicLong();
    /**
     * The communicator looked up last and its entry of {@link #COMMS}, so that a loop of collectives on one
     * communicator finds it without a lock; replaced (under the lock) by the next lookup of another one, and
     * cleared when an entry leaves the map.
     */
    private static volatile LastLookup last;
    private static Boolean enabled;
    private static long slotBytes;
    /**
     * Set by {@link #finalizeAll()}: MPJ Express's {@code Finalize} then runs one last {@code Barrier} of its
     * own, which would otherwise set a communicator's shared memory up again only to use it once.
     */
    private static volatile boolean finalized;

    private ShmCollectives()
    {
    }

    /** Collectives this process has run through shared memory (for tests and benchmarks). */
    public static long handledCalls()
    {
        return HANDLED_CALLS.get();
    }

    /**
     * Heap bytes the engine's waits (fences, flag rounds) in these collectives have allocated, counted only
     * when the system property {@value EngineWaitAllocation#PROPERTY} is {@code on} (for the allocation test:
     * what a collective allocates beyond this is this package's); 0 otherwise.
     */
    public static long engineWaitAllocatedBytes()
    {
        return EngineWaitAllocation.bytes();
    }

    /** {@code Intracomm.Barrier}. */
    public static boolean barrier(final Intracomm comm) throws MPIException
    {
        try
        {
            final TwoLevelCollectives two = twoLevelOf(comm);
            if (two != null)
            {
                two.barrier();
                return handled(true);
            }
            final CommCollectives coll = of(comm);
            if (coll == null)
            {
                return false;
            }
            coll.barrier();
            return handled(true);
        }
        catch (final KuplException | XDevException e)
        {
            throw CollectiveExceptions.of("the shared-memory Barrier", e);
        }
    }

    /** {@code Intracomm.Bcast}. */
    public static boolean bcast(final Intracomm comm, final Object buf, final int offset, final int count,
        final Datatype datatype, final int root) throws MPIException
    {
        try
        {
            final TwoLevelCollectives two = twoLevelOf(comm);
            if (two != null)
            {
                if (!TwoLevelCollectives.handles(datatype))
                {
                    return false;
                }
                two.bcast(buf, offset, count, datatype, root);
                return handled(true);
            }
            final CommCollectives coll = of(comm);
            return coll != null && handled(coll.broadcast.bcast(buf, offset, count, datatype, root));
        }
        catch (final KuplException | XDevException e)
        {
            throw CollectiveExceptions.of("the shared-memory Bcast", e);
        }
    }

    /** {@code Intracomm.Reduce}. */
    public static boolean reduce(final Intracomm comm, final Object sendbuf, final int sendoffset,
        final Object recvbuf, final int recvoffset, final int count, final Datatype datatype, final Op op,
        final int root) throws MPIException
    {
        try
        {
            final TwoLevelCollectives two = twoLevelOf(comm);
            if (two != null)
            {
                if (!TwoLevelCollectives.handles(datatype) || root < 0)
                {
                    return false;
                }
                two.reduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root);
                return handled(true);
            }
            final CommCollectives coll = of(comm);
            return coll != null && root >= 0 &&
                handled(coll.reduction.reduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root));
        }
        catch (final KuplException | XDevException e)
        {
            throw CollectiveExceptions.of("the shared-memory Reduce", e);
        }
    }

    /** {@code Intracomm.Allreduce}. */
    public static boolean allreduce(final Intracomm comm, final Object sendbuf, final int sendoffset,
        final Object recvbuf, final int recvoffset, final int count, final Datatype datatype, final Op op)
        throws MPIException
    {
        try
        {
            final TwoLevelCollectives two = twoLevelOf(comm);
            if (two != null)
            {
                if (!TwoLevelCollectives.handles(datatype))
                {
                    return false;
                }
                two.allreduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
                return handled(true);
            }
            final CommCollectives coll = of(comm);
            return coll != null &&
                handled(coll.reduction.reduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, -1));
        }
        catch (final KuplException | XDevException e)
        {
            throw CollectiveExceptions.of("the shared-memory Allreduce", e);
        }
    }

    /** {@code Intracomm.Gather}. */
    public static boolean gather(final Intracomm comm, final Object sendbuf, final int sendoffset,
        final int sendcount, final Datatype sendtype, final Object recvbuf, final int recvoffset,
        final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        try
        {
            final TwoLevelCollectives two = twoLevelOf(comm);
            if (two != null)
            {
                if (!TwoLevelCollectives.handles(sendtype) || root < 0)
                {
                    return false;
                }
                two.gather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, root);
                return handled(true);
            }
            final CommCollectives coll = of(comm);
            return coll != null && root >= 0 && handled(coll.gathering.gather(sendbuf, sendoffset, sendcount, sendtype,
                recvbuf, recvoffset, recvcount, recvtype, root));
        }
        catch (final KuplException | XDevException e)
        {
            throw CollectiveExceptions.of("the shared-memory Gather", e);
        }
    }

    /** {@code Intracomm.Allgather}. */
    public static boolean allgather(final Intracomm comm, final Object sendbuf, final int sendoffset,
        final int sendcount, final Datatype sendtype, final Object recvbuf, final int recvoffset,
        final int recvcount, final Datatype recvtype) throws MPIException
    {
        try
        {
            final TwoLevelCollectives two = twoLevelOf(comm);
            if (two != null)
            {
                if (!TwoLevelCollectives.handles(sendtype))
                {
                    return false;
                }
                two.gather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, -1);
                return handled(true);
            }
            final CommCollectives coll = of(comm);
            return coll != null && handled(coll.gathering.gather(sendbuf, sendoffset, sendcount, sendtype,
                recvbuf, recvoffset, recvcount, recvtype, -1));
        }
        catch (final KuplException | XDevException e)
        {
            throw CollectiveExceptions.of("the shared-memory Allgather", e);
        }
    }

    /** {@code Intracomm.Scatter}. */
    public static boolean scatter(final Intracomm comm, final Object sendbuf, final int sendoffset,
        final int sendcount, final Datatype sendtype, final Object recvbuf, final int recvoffset,
        final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        try
        {
            final CommCollectives coll = of(comm);
            return coll != null && handled(coll.gathering.scatter(sendbuf, sendoffset, sendcount, sendtype,
                recvbuf, recvoffset, recvcount, recvtype, root));
        }
        catch (final KuplException | XDevException e)
        {
            throw CollectiveExceptions.of("the shared-memory Scatter", e);
        }
    }

    /** {@code Intracomm.Alltoall}. */
    public static boolean alltoall(final Intracomm comm, final Object sendbuf, final int sendoffset,
        final int sendcount, final Datatype sendtype, final Object recvbuf, final int recvoffset,
        final int recvcount, final Datatype recvtype) throws MPIException
    {
        try
        {
            final CommCollectives coll = of(comm);
            return coll != null && handled(coll.gathering.alltoall(sendbuf, sendoffset, sendcount, sendtype,
                recvbuf, recvoffset, recvcount, recvtype));
        }
        catch (final KuplException | XDevException e)
        {
            throw CollectiveExceptions.of("the shared-memory Alltoall", e);
        }
    }

    /** {@code Comm.Free}: frees the communicator's shared memory, collectively, if it has any. */
    public static void free(final Comm comm)
    {
        final CommCollectives coll;
        final TwoLevelCollectives two;
        synchronized (ShmCollectives.class)
        {
            coll = COMMS.remove(comm);
            CREATED.remove(comm);
            SHAPES.remove(comm);
            two = TWO_LEVEL.remove(comm);
            last = null;
        }
        close(coll);
        if (two != null)
        {
            try
            {
                two.free();
            }
            catch (final MPIException e)
            {
                throw new IllegalStateException("freeing a communicator's node and leader communicators: " +
                    e.getMessage(), e);
            }
        }
    }

    /**
     * {@code MPI.Finalize}: frees every communicator's shared memory, in the order it was set up; later
     * collectives (MPJ Express's own last {@code Barrier}) run MPJ Express's algorithms.
     */
    public static void finalizeAll()
    {
        final List<CommCollectives> open = new ArrayList<>();
        synchronized (ShmCollectives.class)
        {
            finalized = true;
            for (final Comm comm : CREATED)
            {
                open.add(COMMS.get(comm));
            }
            CREATED.clear();
            COMMS.clear();
            // Their node communicators' shared memory is among CREATED; the communicators themselves need no free.
            SHAPES.clear();
            TWO_LEVEL.clear();
            last = null;
        }
        for (final CommCollectives coll : open)
        {
            close(coll);
        }
    }

    private static void close(final CommCollectives coll)
    {
        if (coll == null)
        {
            return;
        }
        BOOTSTRAPPING.set(Boolean.TRUE);
        try
        {
            coll.close();
        }
        catch (final KuplException | XDevException e)
        {
            throw CollectiveExceptions.of("freeing a communicator's shared memory", e);
        }
        finally
        {
            BOOTSTRAPPING.set(Boolean.FALSE);
        }
    }

    private static boolean handled(final boolean done)
    {
        if (done)
        {
            HANDLED_CALLS.incrementAndGet();
        }
        return done;
    }

    /** The communicator's shared-memory collectives, set up at its first collective; null: MPJ Express's. */
    private static CommCollectives of(final Intracomm comm) throws MPIException
    {
        if (BOOTSTRAPPING.get() || finalized)
        {
            return null;
        }
        final LastLookup cached = last;
        if (cached != null && cached.comm() == comm)
        {
            return cached.coll();
        }
        if (!isEnabled())
        {
            return null;
        }
        synchronized (ShmCollectives.class)
        {
            if (COMMS.containsKey(comm))
            {
                final CommCollectives coll = COMMS.get(comm);
                last = new LastLookup(comm, coll);
                return coll;
            }
        }
        if (spansNodes() && shapeOf(comm) != TwoLevelCollectives.Shape.ONE_NODE)
        {
            // No shared memory spans nodes: two levels (twoLevelOf), or MPJ Express's algorithms.
            synchronized (ShmCollectives.class)
            {
                COMMS.put(comm, null);
                last = new LastLookup(comm, null);
            }
            return null;
        }
        CommCollectives coll = UNAVAILABLE_MARK;
        BOOTSTRAPPING.set(Boolean.TRUE);
        try
        {
            coll = CommCollectives.create(comm, slotBytes);
        }
        catch (final PeerDeathException e)
        {
            // Not a failure the ranks agree on: a rank is gone, and the job with it.
            throw CollectiveExceptions.of("setting up a communicator's shared memory", e);
        }
        catch (final KuplException e)
        {
            // Agreed by every rank (the engine's creation and allocation fail together): all use MPJ's algorithms.
            System.err.println("kupl collectives: no shared memory for a communicator of " + comm.Size() +
                " ranks, so its collectives use MPJ Express's messages: " + e.getMessage());
        }
        finally
        {
            BOOTSTRAPPING.set(Boolean.FALSE);
        }
        synchronized (ShmCollectives.class)
        {
            COMMS.put(comm, coll);
            if (coll != null)
            {
                CREATED.add(comm);
            }
            last = new LastLookup(comm, coll);
        }
        return coll;
    }

    /** On a device whose jobs span nodes, the two-level collectives of {@code comm} if it needs them; else null. */
    private static TwoLevelCollectives twoLevelOf(final Intracomm comm) throws MPIException
    {
        if (BOOTSTRAPPING.get() || finalized || !isEnabled() || !spansNodes())
        {
            return null;
        }
        if (shapeOf(comm) != TwoLevelCollectives.Shape.TWO_LEVEL)
        {
            return null;
        }
        synchronized (ShmCollectives.class)
        {
            return TWO_LEVEL.get(comm);
        }
    }

    /** Where {@code comm}'s ranks are, found at its first collective (collective over it). */
    private static TwoLevelCollectives.Shape shapeOf(final Intracomm comm) throws MPIException
    {
        synchronized (ShmCollectives.class)
        {
            final TwoLevelCollectives.Shape known = SHAPES.get(comm);
            if (known != null)
            {
                return known;
            }
        }
        BOOTSTRAPPING.set(Boolean.TRUE);
        try
        {
            final int[] nodes = TwoLevelCollectives.nodesOf(comm);
            final TwoLevelCollectives.Shape shape = TwoLevelCollectives.shapeOf(nodes);
            final TwoLevelCollectives two = shape == TwoLevelCollectives.Shape.TWO_LEVEL ?
                TwoLevelCollectives.create(comm, nodes) : null;
            synchronized (ShmCollectives.class)
            {
                SHAPES.put(comm, shape);
                if (two != null)
                {
                    TWO_LEVEL.put(comm, two);
                }
            }
            return shape;
        }
        finally
        {
            BOOTSTRAPPING.set(Boolean.FALSE);
        }
    }

    /** Whether this rank's device runs jobs that span nodes ({@link ClusterShmDevice}). */
    private static boolean spansNodes()
    {
        return MPJDev.dev instanceof ClusterShmDevice;
    }

    /** A communicator and its shared-memory collectives (null: MPJ Express's). */
    private record LastLookup(Comm comm, CommCollectives coll)
    {
    }

    /** Whether this JVM is a rank of the shm device with the shared-memory path on; read at the first call. */
    private static synchronized boolean isEnabled()
    {
        if (enabled == null)
        {
            final String setting = System.getProperty(ENABLED_PROPERTY, "on");
            if (!setting.equals("on") && !setting.equals("off"))
            {
                throw new IllegalArgumentException(ENABLED_PROPERTY + "=" + setting + ": give on or off");
            }
            slotBytes = Long.getLong(SLOT_BYTES_PROPERTY, DEFAULT_SLOT_BYTES);
            if (slotBytes < 64 || slotBytes > (1L << 30) || slotBytes % 8 != 0)
            {
                throw new IllegalArgumentException(SLOT_BYTES_PROPERTY + "=" + slotBytes +
                    ": give a multiple of 8 bytes from 64 to 1073741824");
            }
            enabled = setting.equals("on") && (MPJDev.dev instanceof ShmDevice || MPJDev.dev instanceof ClusterShmDevice);
        }
        return enabled;
    }
}
