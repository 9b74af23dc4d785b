package mpi.rma.internal;

import mpi.Datatype;
import mpi.Op;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.types.AccumulateOps;
import mpi.rma.spi.common.ReduceOp;
import mpi.rma.internal.types.TypeLayout;
import mpi.rma.internal.types.TypeLayouts;

/**
 * Request-based RMA ({@code Win.rPut}, {@code Win.rGet}, {@code Win.rAccumulate}, {@code Win.rGetAccumulate};
 * MPI-4.1 section 12.3.5) behind {@code Win}: the arguments of put, get, accumulate and getAccumulate, checked as
 * theirs are ({@link AccessChecks}), in a passive-target epoch only, and the {@link Completion} that each one's
 * {@link mpi.rma.WinRequest} completes.
 *
 * <p>What the request completes (docs/design.md#request-based-rma): a put or accumulate is complete at the origin
 * when the call returns on every path (a shared-memory store, or a message whose buffer MPJ Express's send has
 * released), so its request is complete at once, and completion at the target is a flush's or unlock's. A get or
 * getAccumulate is complete when the elements are in the origin's array: at once on shared memory and for this
 * process's own memory, on arrival of the reply on the message path ({@link TargetPath#startGet}).
 */
public final class RequestCalls
{
    private final AccessChecks checks;
    private final Epochs epochs;
    private final TargetPath targets;
    private final WindowHints hints;

    public RequestCalls(final AccessChecks checks, final Epochs epochs, final TargetPath targets,
        final WindowHints hints)
    {
        this.checks = checks;
        this.epochs = epochs;
        this.targets = targets;
        this.hints = hints;
    }

    public Completion rPut(final Object origin, final int originOffset, final int originCount,
        final Datatype originType,
        final int targetRank, final long targetDisp, final int targetCount, final Datatype targetType)
    {
        final String call = "Win.rPut";
        checkPassive(call, targetRank);
        final AccessChecks.Transfer transfer = checks.transfer(epochs, call, origin, originOffset, originCount,
            originType, targetRank, targetDisp, targetCount, targetType, true);
        if (transfer != null)
        {
            targets.put(call, origin, originOffset, transfer.origin(), originCount, targetRank, transfer.offset(),
                transfer.target(), targetCount);
        }
        return Completion.DONE;
    }

    public Completion rGet(final Object origin, final int originOffset, final int originCount,
        final Datatype originType,
        final int targetRank, final long targetDisp, final int targetCount, final Datatype targetType)
    {
        final String call = "Win.rGet";
        checkPassive(call, targetRank);
        final AccessChecks.Transfer transfer = checks.transfer(epochs, call, origin, originOffset, originCount,
            originType, targetRank, targetDisp, targetCount, targetType, false);
        if (transfer == null)
        {
            return Completion.DONE;
        }
        return targets.startGet(call, origin, originOffset, transfer.origin(), originCount,
            targetRank, transfer.offset(), transfer.target(), targetCount);
    }

    public Completion rAccumulate(final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final int targetRank, final long targetDisp, final int targetCount,
        final Datatype targetType, final Op op)
    {
        final String call = "Win.rAccumulate";
        checkPassive(call, targetRank);
        final TypeLayout type = TypeLayouts.of(originType, call, "origin");
        final ReduceOp reduce = AccumulateOps.forAccumulate(op, originType, type, targetType, call);
        final AccessChecks.Transfer transfer = checks.transfer(epochs, call, origin, originOffset, originCount,
            originType, targetRank, targetDisp, targetCount, targetType, true);
        if (transfer != null)
        {
            targets.accumulate(call, reduce, origin, originOffset, transfer.origin(), originCount, targetRank,
                transfer.offset(), transfer.target(), targetCount);
        }
        return Completion.DONE;
    }

    public Completion rGetAccumulate(final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final Object result, final int resultOffset, final int resultCount,
        final Datatype resultType, final int targetRank, final long targetDisp, final int targetCount,
        final Datatype targetType, final Op op)
    {
        final String call = "Win.rGetAccumulate";
        checkPassive(call, targetRank);
        final AccessChecks.ResultTransfer transfer = checks.resultTransfer(epochs, call, origin, originOffset,
            originCount, originType, result, resultOffset, resultCount, resultType, targetRank, targetDisp,
            targetCount, targetType, op);
        if (transfer == null)
        {
            return Completion.DONE;
        }
        return targets.startGetAccumulate(call, transfer.op(), origin, originOffset,
            transfer.origin(), originCount, result, resultOffset, transfer.result(), resultCount, targetRank,
            transfer.offset(), transfer.target(), targetCount);
    }

    /** A rank or PROC_NULL (ERR_RANK) with a passive-target epoch open to it (ERR_RMA_SYNC). */
    private void checkPassive(final String call, final int targetRank)
    {
        checks.checkRank(call, "targetRank", targetRank, true);
        if (hints.noLocks())
        {
            throw new RmaException(ErrorClass.ERR_RMA_SYNC, call + ": the window was made with info no_locks=true, " +
                "so it has no passive-target epochs, which request-based calls need: use win.put, get or accumulate " +
                "between fences, or make the window without no_locks");
        }
        epochs.checkPassiveAccess(call, targetRank);
    }
}
