package mpi.rma.internal.creation;

import java.lang.foreign.MemorySegment;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Info;
import mpi.rma.RmaException;
import mpi.rma.spi.common.NodeIdentity;
import mpi.rma.internal.ProcessFailures;
import mpi.rma.internal.Providers;
import mpi.rma.internal.WindowHints;
import mpi.rma.internal.WindowParts;
import mpi.rma.internal.message.ExposedMemory;
import mpi.rma.internal.message.MessageTargets;
import mpi.rma.internal.message.MessageWindow;
import mpi.rma.internal.shared.AlignedSegments;
import mpi.rma.internal.shared.SharedTargets;
import mpi.rma.spi.SharedMemory;
import mpi.rma.spi.SharedMemoryProvider;
import mpi.rma.internal.vocabulary.Flavors;

/**
 * {@code Win.allocate}: memory from the node's shared memory, so that targets on the caller's node
 * are reached by loads and stores and the others by messages. All processes agree on their
 * arguments ({@link CreationAgreement}) and learn each other's node; each node's processes then
 * allocate their segments together, and all agree again that every node could. With every process
 * on one node the window is a shared-memory window ({@link SharedTargets}); across nodes it picks
 * the path per target ({@link MixedTargets}). Without a shared-memory provider on the class path of
 * every process, every target is reached by messages over memory of the JVM ({@link MessageWindowCreation}).
 */
public final class AllocateWindowCreation
{
    private static final String CALL = "Win.allocate";
    /** Fields of each process's record in the exchange of nodes. */
    private static final int NODE = 0;
    private static final int HAS_PROVIDER = 1;
    private static final int FIELDS = 2;

    private AllocateWindowCreation()
    {
    }

    public static WindowParts allocate(final long size, final int dispUnit, final Info info, final Intracomm comm)
    {
        WindowDevices.refuse(CALL);
        if (comm == null)
        {
            throw new RmaException(ErrorClass.ERR_COMM, CALL + ": comm is null: give an intracommunicator such as " +
                "MPI.COMM_WORLD");
        }
        RmaException localError = null;
        WindowHints hints = WindowHints.defaults();
        try
        {
            checkArguments(size, dispUnit);
            hints = WindowHints.from(info, CALL);
        }
        catch (final RmaException e)
        {
            localError = e;
        }
        final CreationAgreement layout = CreationAgreement.reach(CALL, comm, size, dispUnit, localError);
        final SharedMemoryProvider provider = providerOrNull();
        final long[] records = exchangeNodes(comm, provider != null);
        final int ranks = comm.Size();
        boolean everyProvider = true;
        boolean oneNode = true;
        final long[] nodes = new long[ranks];
        for (int peer = 0; peer < ranks; peer++)
        {
            nodes[peer] = records[peer * FIELDS + NODE];
            everyProvider &= records[peer * FIELDS + HAS_PROVIDER] != 0;
            oneNode &= nodes[peer] == nodes[0];
        }
        if (!everyProvider)
        {
            return MessageWindowCreation.allocate(size, dispUnit, info, comm);
        }
        final int rank = comm.Rank();
        final Intracomm nodeComm = oneNode ? comm : split(comm, NodeIdentity.lowestRankOnNode(nodes, rank), rank);
        final SharedMemory memory = allocateOnNode(comm, nodeComm, provider, size, dispUnit,
            hints.minimumAlignment());
        final WindowHints laidOut = hints.withMinimumAlignment(AlignedSegments.alignmentOf(
            memory.segment(nodeComm.Rank()), Math.max(1, hints.minimumAlignment())));
        if (oneNode)
        {
            return new WindowParts(comm, layout.sizes(), layout.dispUnits(), laidOut,
                new SharedTargets(rank, layout.sizes(), layout.dispUnits(), memory, Flavors.ALLOCATE));
        }
        return acrossNodes(comm, nodeComm, nodes, layout, laidOut, memory);
    }

    private static void checkArguments(final long size, final int dispUnit)
    {
        if (size < 0)
        {
            throw new RmaException(ErrorClass.ERR_SIZE, CALL + ": size=" + size + " is negative: give 0 or more bytes");
        }
        if (dispUnit <= 0)
        {
            throw new RmaException(ErrorClass.ERR_DISP, CALL + ": dispUnit=" + dispUnit + " must be positive " +
                "(1 for bytes, 8 for doubles, ...)");
        }
    }

    private static SharedMemoryProvider providerOrNull()
    {
        try
        {
            return Providers.get();
        }
        catch (final RmaException e)
        {
            return null;
        }
    }

    /** Every process's node and whether it has a provider, {@link #FIELDS} longs per rank. */
    private static long[] exchangeNodes(final Intracomm comm, final boolean hasProvider)
    {
        final long[] all = new long[comm.Size() * FIELDS];
        try
        {
            comm.Allgather(new long[] {NodeIdentity.current(), hasProvider ? 1 : 0}, 0, FIELDS, MPI.LONG, all, 0,
                FIELDS, MPI.LONG);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(CALL, "the Allgather of nodes over the communicator", e);
        }
        return all;
    }

    private static Intracomm split(final Intracomm comm, final int colour, final int rank)
    {
        try
        {
            return comm.Split(colour, rank);
        }
        catch (final RuntimeException e)
        {
            throw ProcessFailures.classify(CALL, "splitting the communicator by node", e);
        }
    }

    /**
     * This node's segments, this process's zeroed; collective over {@code comm}: returns on every
     * process or throws on every process (then nothing stays allocated).
     */
    private static SharedMemory allocateOnNode(final Intracomm comm, final Intracomm nodeComm,
        final SharedMemoryProvider provider, final long size, final int dispUnit, final long alignment)
    {
        SharedMemory memory = null;
        RmaException failure = null;
        try
        {
            // Noncontiguous: each segment starts on a page, which satisfies any alignment the hints accept.
            final AllocationAgreement nodeLayout = AllocationAgreement.reach(nodeComm, size, dispUnit, true,
                alignment, null, provider.allocationToken(nodeComm));
            memory = AlignedSegments.allocate(provider, nodeComm, nodeLayout);
            // A provider may hand back memory a freed window used: Win.allocate's memory starts zeroed.
            memory.segment(nodeComm.Rank()).fill((byte)0);
        }
        catch (final RmaException e)
        {
            failure = e;
        }
        try
        {
            // Also the barrier after which every process's zeroing is done.
            CreationAgreement.agree(CALL, comm, failure);
        }
        catch (final RmaException e)
        {
            if (memory != null)
            {
                memory.free();
            }
            if (nodeComm != comm)
            {
                nodeComm.Free();
            }
            throw e;
        }
        return memory;
    }

    private static WindowParts acrossNodes(final Intracomm comm, final Intracomm nodeComm, final long[] nodes,
        final CreationAgreement layout, final WindowHints hints, final SharedMemory memory)
    {
        final int ranks = comm.Size();
        final int rank = comm.Rank();
        final int[] nodeRankOf = new int[ranks];
        final long[] nodeSizes = new long[nodeComm.Size()];
        final int[] nodeDispUnits = new int[nodeComm.Size()];
        int next = 0;
        for (int peer = 0; peer < ranks; peer++)
        {
            // Split by rank keeps the order of the ranks: the n-th rank on this node is rank n of nodeComm.
            nodeRankOf[peer] = nodes[peer] == nodes[rank] ? next++ : -1;
            if (nodeRankOf[peer] >= 0)
            {
                nodeSizes[nodeRankOf[peer]] = layout.sizes()[peer];
                nodeDispUnits[nodeRankOf[peer]] = layout.dispUnits()[peer];
            }
        }
        final SharedTargets node = new SharedTargets(nodeComm.Rank(), nodeSizes, nodeDispUnits, memory,
            Flavors.ALLOCATE);
        final MemorySegment own = node.localMemory();
        final MessageWindow messages;
        try
        {
            messages = MessageWindow.start(CALL, comm,
                ExposedMemory.inSharedMemory(own, node.atomics(), nodeComm.Rank()), Flavors.ALLOCATE, null);
        }
        catch (final RmaException e)
        {
            memory.free();
            nodeComm.Free();
            throw e;
        }
        return new WindowParts(comm, layout.sizes(), layout.dispUnits(), hints, new MixedTargets(nodeRankOf,
            layout.sizes(), layout.dispUnits(), node, new MessageTargets(rank, layout.sizes(), layout.dispUnits(),
            messages), nodeComm));
    }
}
