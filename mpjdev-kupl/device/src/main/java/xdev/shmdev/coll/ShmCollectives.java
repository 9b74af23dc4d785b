package xdev.shmdev.coll;

import java.util.concurrent.atomic.AtomicLong;

import kupl.KuplException;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPIException;
import mpi.Op;
import xdev.XDevException;

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
 *
 * <p>This class is the entry point and chooses, per call, the one-node or two-level path; each
 * communicator's set-up and freeing are {@code CommRegistry}'s, the settings {@code CollectiveSettings}'.
 */
public final class ShmCollectives
{
    /** System property: {@code off} leaves every collective to MPJ Express. */
    public static final String ENABLED_PROPERTY = "kupl.coll";
    /** System property: bytes of one staging slot. */
    public static final String SLOT_BYTES_PROPERTY = "kupl.coll.slotBytes";
    /** Default bytes of one staging slot: a 1 MiB Bcast in one phase, or 8 ranks' 128 KiB blocks. */
    public static final long DEFAULT_SLOT_BYTES = 1024 * 1024;

    private static final AtomicLong HANDLED_CALLS = new AtomicLong();

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
            final TwoLevelCollectives two = CommRegistry.twoLevelOf(comm);
            if (two != null)
            {
                two.barrier();
                return handled(true);
            }
            final CommCollectives coll = CommRegistry.of(comm);
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
            final TwoLevelCollectives two = CommRegistry.twoLevelOf(comm);
            if (two != null)
            {
                if (!TwoLevelCollectives.handles(datatype))
                {
                    return false;
                }
                two.bcast(buf, offset, count, datatype, root);
                return handled(true);
            }
            final CommCollectives coll = CommRegistry.of(comm);
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
            final TwoLevelCollectives two = CommRegistry.twoLevelOf(comm);
            if (two != null)
            {
                if (!TwoLevelCollectives.handles(datatype) || root < 0)
                {
                    return false;
                }
                two.reduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, root);
                return handled(true);
            }
            final CommCollectives coll = CommRegistry.of(comm);
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
            final TwoLevelCollectives two = CommRegistry.twoLevelOf(comm);
            if (two != null)
            {
                if (!TwoLevelCollectives.handles(datatype))
                {
                    return false;
                }
                two.allreduce(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op);
                return handled(true);
            }
            final CommCollectives coll = CommRegistry.of(comm);
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
            final TwoLevelCollectives two = CommRegistry.twoLevelOf(comm);
            if (two != null)
            {
                if (!TwoLevelCollectives.handles(sendtype) || root < 0)
                {
                    return false;
                }
                two.gather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, root);
                return handled(true);
            }
            final CommCollectives coll = CommRegistry.of(comm);
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
            final TwoLevelCollectives two = CommRegistry.twoLevelOf(comm);
            if (two != null)
            {
                if (!TwoLevelCollectives.handles(sendtype))
                {
                    return false;
                }
                two.gather(sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, -1);
                return handled(true);
            }
            final CommCollectives coll = CommRegistry.of(comm);
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
            final CommCollectives coll = CommRegistry.of(comm);
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
            final CommCollectives coll = CommRegistry.of(comm);
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
        CommRegistry.free(comm);
    }

    /**
     * {@code MPI.Finalize}: frees every communicator's shared memory, in the order it was set up; later
     * collectives (MPJ Express's own last {@code Barrier}) run MPJ Express's algorithms.
     */
    public static void finalizeAll()
    {
        CommRegistry.finalizeAll();
    }

    private static boolean handled(final boolean done)
    {
        if (done)
        {
            HANDLED_CALLS.incrementAndGet();
        }
        return done;
    }
}
