package mpi.rma.internal.creation;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.RmaException;
import mpi.rma.SharedSegment;
import mpi.rma.internal.Completion;
import mpi.rma.internal.TargetPath;
import mpi.rma.internal.message.ExposedMemory;
import mpi.rma.internal.message.MessageTargets;
import mpi.rma.internal.message.PassiveLockQueue;
import mpi.rma.internal.shared.AtomicElements;
import mpi.rma.internal.shared.SharedTargets;
import mpi.rma.internal.sync.PscwMixed;
import mpi.rma.internal.sync.PscwPath;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.ReduceOp;
import mpi.rma.internal.types.TypeLayout;
import mpi.rma.internal.vocabulary.Flavors;
import mpi.rma.internal.vocabulary.MemoryModels;

/**
 * The targets of a window made by {@code Win.allocate} on processes of several nodes: those on this
 * process's node through the node's shared memory ({@link SharedTargets}, loads and stores), the
 * others through messages ({@link MessageTargets}), chosen per target. Every process's memory is its
 * segment of its node's shared memory, so an update reaches it whichever path its origin takes:
 * <ul>
 * <li>the accumulate family is atomic per element across both paths: the target agent applies
 *     remote accumulates with the node's {@link AtomicElements}, the same lock-free updates and
 *     accumulate lock words as the node's own origins ({@link ExposedMemory#inSharedMemory});</li>
 * <li>each target has one passive-target lock, its agent's {@link PassiveLockQueue}: origins on
 *     the target's node ask it by message too, so one queue orders every lock of that target.</li>
 * </ul>
 * docs/design.md#one-atomicity-and-one-lock-per-target gives the reasons.
 */
public final class MixedTargets implements TargetPath
{
    /** Each rank's index among the node's segments, or -1 for a rank on another node. */
    private final int[] nodeRankOf;
    private final long[] sizes;
    private final int[] dispUnits;
    private final SharedTargets node;
    private final MessageTargets messages;
    /** The communicator of this node's processes, made for the window and freed with it. */
    private final Intracomm nodeComm;
    private final PscwMixed pscw;
    private boolean released;

    MixedTargets(final int[] nodeRankOf, final long[] sizes, final int[] dispUnits,
        final SharedTargets node, final MessageTargets messages, final Intracomm nodeComm)
    {
        this.nodeRankOf = nodeRankOf;
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.node = node;
        this.messages = messages;
        this.nodeComm = nodeComm;
        final int[] windowRankOf = new int[nodeComm.Size()];
        for (int peer = 0; peer < nodeRankOf.length; peer++)
        {
            if (nodeRankOf[peer] >= 0)
            {
                windowRankOf[nodeRankOf[peer]] = peer;
            }
        }
        this.pscw = new PscwMixed(nodeRankOf, node.pscwNamed(windowRankOf), messages.pscw());
    }

    @Override
    public void put(final String call, final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount, final int target, final long offset, final TypeLayout targetType, final int targetCount)
    {
        final int onNode = nodeRankOf[target];
        if (onNode >= 0)
        {
            node.put(call, origin, originOffset, originType, originCount, onNode, offset, targetType, targetCount);
            return;
        }
        messages.put(call, origin, originOffset, originType, originCount, target, offset, targetType, targetCount);
    }

    @Override
    public void get(final String call, final Object origin, final int originOffset, final TypeLayout originType,
        final int originCount, final int target, final long offset, final TypeLayout targetType, final int targetCount)
    {
        final int onNode = nodeRankOf[target];
        if (onNode >= 0)
        {
            node.get(call, origin, originOffset, originType, originCount, onNode, offset, targetType, targetCount);
            return;
        }
        messages.get(call, origin, originOffset, originType, originCount, target, offset, targetType, targetCount);
    }

    @Override
    public void accumulate(final String call, final ReduceOp op, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        final int onNode = nodeRankOf[target];
        if (onNode >= 0)
        {
            node.accumulate(call, op, origin, originOffset, originType, originCount, onNode, offset, targetType,
                targetCount);
            return;
        }
        messages.accumulate(call, op, origin, originOffset, originType, originCount, target, offset, targetType,
            targetCount);
    }

    @Override
    public void getAccumulate(final String call, final ReduceOp op, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final Object result, final int resultOffset,
        final TypeLayout resultType, final int resultCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        final int onNode = nodeRankOf[target];
        if (onNode >= 0)
        {
            node.getAccumulate(call, op, origin, originOffset, originType, originCount, result, resultOffset,
                resultType, resultCount, onNode, offset, targetType, targetCount);
            return;
        }
        messages.getAccumulate(call, op, origin, originOffset, originType, originCount, result, resultOffset,
            resultType, resultCount, target, offset, targetType, targetCount);
    }

    @Override
    public Completion startGet(final String call, final Object origin, final int originOffset,
        final TypeLayout originType, final int originCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        final int onNode = nodeRankOf[target];
        if (onNode >= 0)
        {
            node.get(call, origin, originOffset, originType, originCount, onNode, offset, targetType, targetCount);
            return Completion.DONE;
        }
        return messages.startGet(call, origin, originOffset, originType, originCount, target, offset, targetType,
            targetCount);
    }

    @Override
    public Completion startGetAccumulate(final String call, final ReduceOp op, final Object origin,
        final int originOffset, final TypeLayout originType, final int originCount, final Object result,
        final int resultOffset, final TypeLayout resultType, final int resultCount, final int target, final long offset,
        final TypeLayout targetType, final int targetCount)
    {
        final int onNode = nodeRankOf[target];
        if (onNode >= 0)
        {
            node.getAccumulate(call, op, origin, originOffset, originType, originCount, result, resultOffset,
                resultType, resultCount, onNode, offset, targetType, targetCount);
            return Completion.DONE;
        }
        return messages.startGetAccumulate(call, op, origin, originOffset, originType, originCount, result,
            resultOffset, resultType, resultCount, target, offset, targetType, targetCount);
    }

    @Override
    public void fetchAndOp(final String call, final BasicType type, final ReduceOp op, final Object origin,
        final int originOffset, final Object result, final int resultOffset, final int target, final long offset)
    {
        final int onNode = nodeRankOf[target];
        if (onNode >= 0)
        {
            node.fetchAndOp(call, type, op, origin, originOffset, result, resultOffset, onNode, offset);
            return;
        }
        messages.fetchAndOp(call, type, op, origin, originOffset, result, resultOffset, target, offset);
    }

    @Override
    public long compareAndSwap(final String call, final BasicType type, final long compare, final long replacement,
        final int target, final long offset)
    {
        final int onNode = nodeRankOf[target];
        return onNode >= 0 ? node.compareAndSwap(call, type, compare, replacement, onNode, offset) :
            messages.compareAndSwap(call, type, compare, replacement, target, offset);
    }

    @Override
    public void fence(final String call, final RmaException localError)
    {
        // Stores to the node's memory before the fence, loads after it: the agreement's messages order them
        // between processes, these barriers within each.
        VarHandle.fullFence();
        messages.fence(call, localError);
        VarHandle.fullFence();
    }

    @Override
    public void lock(final String call, final int target, final boolean exclusive)
    {
        messages.lock(call, target, exclusive);
        // The previous holder's stores to the node's memory came before its release, which came before this grant.
        VarHandle.fullFence();
    }

    @Override
    public void unlock(final String call, final int target, final boolean held, final boolean exclusive)
    {
        messages.unlock(call, target, held, exclusive);
    }

    @Override
    public void flush(final String call, final int target)
    {
        // Targets on the node were never sent anything: the message path flushes only the others.
        messages.flush(call, target);
    }

    @Override
    public void free(final String call, final RmaException localError)
    {
        messages.free(call, localError);
        // Every process has passed the message path's fence and stopped its agent: nothing touches the node's
        // memory any more.
        released = true;
        try
        {
            node.free(call, null);
        }
        finally
        {
            nodeComm.Free();
        }
    }

    @Override
    public boolean released()
    {
        return released;
    }

    /** The memory of the targets on this node; size 0 for the others (MPI-4.1 12.2.3). */
    @Override
    public SharedSegment sharedQuery(final int peer)
    {
        if (peer != MPI.PROC_NULL)
        {
            return nodeRankOf[peer] >= 0 ? node.segmentOf(nodeRankOf[peer]) :
                new SharedSegment(0, dispUnits[peer], MemorySegment.NULL);
        }
        for (int candidate = 0; candidate < sizes.length; candidate++)
        {
            if (nodeRankOf[candidate] >= 0 && sizes[candidate] > 0)
            {
                return node.segmentOf(nodeRankOf[candidate]);
            }
        }
        return new SharedSegment(0, 0, MemorySegment.NULL);
    }

    @Override
    public MemorySegment localMemory()
    {
        return node.localMemory();
    }

    @Override
    public int flavor()
    {
        return Flavors.ALLOCATE;
    }

    /** Targets on other nodes see this process's updates only after a synchronisation. */
    @Override
    public int model()
    {
        return MemoryModels.SEPARATE;
    }

    @Override
    public PscwPath pscw()
    {
        return pscw;
    }
}
