package xdev.shmdev.coll;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import kupl.KuplException;
import kupl.PeerDeathException;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPIException;
import mpjdev.javampjdev.MPJDev;
import xdev.XDevException;
import xdev.shmdev.ClusterShmDevice;

/**
 * This process's communicators and their shared-memory collectives ({@link ShmCollectives}' state): each set
 * up at the communicator's first collective, found again without a lock by a loop of collectives on one
 * communicator, freed with it or, in the order they were set up, at {@code MPI.Finalize}. The MPJ Express
 * collectives of the engine's own set-up run while a thread is inside it, so those are left to MPJ Express.
 */
final class CommRegistry
{
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
    /**
     * The communicator looked up last and its entry of {@link #COMMS}, so that a loop of collectives on one
     * communicator finds it without a lock; replaced (under the lock) by the next lookup of another one, and
     * cleared when an entry leaves the map.
     */
    private static volatile LastLookup last;
    /**
     * Set by {@link #finalizeAll()}: MPJ Express's {@code Finalize} then runs one last {@code Barrier} of its
     * own, which would otherwise set a communicator's shared memory up again only to use it once.
     */
    private static volatile boolean finalized;

    private CommRegistry()
    {
    }

    /** {@code Comm.Free}: frees the communicator's shared memory, collectively, if it has any. */
    static void free(final Comm comm)
    {
        final CommCollectives coll;
        final TwoLevelCollectives two;
        synchronized (CommRegistry.class)
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
    static void finalizeAll()
    {
        final List<CommCollectives> open = new ArrayList<>();
        synchronized (CommRegistry.class)
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

    /** The communicator's shared-memory collectives, set up at its first collective; null: MPJ Express's. */
    static CommCollectives of(final Intracomm comm) throws MPIException
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
        if (!CollectiveSettings.isEnabled())
        {
            return null;
        }
        synchronized (CommRegistry.class)
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
            synchronized (CommRegistry.class)
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
            coll = CommCollectives.create(comm, CollectiveSettings.slotBytes());
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
        synchronized (CommRegistry.class)
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
    static TwoLevelCollectives twoLevelOf(final Intracomm comm) throws MPIException
    {
        if (BOOTSTRAPPING.get() || finalized || !CollectiveSettings.isEnabled() || !spansNodes())
        {
            return null;
        }
        if (shapeOf(comm) != TwoLevelCollectives.Shape.TWO_LEVEL)
        {
            return null;
        }
        synchronized (CommRegistry.class)
        {
            return TWO_LEVEL.get(comm);
        }
    }

    /** Where {@code comm}'s ranks are, found at its first collective (collective over it). */
    private static TwoLevelCollectives.Shape shapeOf(final Intracomm comm) throws MPIException
    {
        synchronized (CommRegistry.class)
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
            synchronized (CommRegistry.class)
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

}
