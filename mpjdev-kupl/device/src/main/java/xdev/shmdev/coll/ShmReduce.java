package xdev.shmdev.coll;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;

/**
 * {@code Reduce} and {@code Allreduce} through shared memory, with MPJ Express's results bit for bit.
 *
 * <p>Every rank stages its vector, then a flag round ({@link StagingArea#flagRound()}: one exchange of
 * flags that share cache lines with the headers and the start of the vectors). A short vector (or a user
 * function, or a pair type) is then combined whole by the ranks that need the result, each reading all
 * staged vectors: one round in all, no second. A long one is cut into one slice of items per rank: each
 * rank combines its slice of all vectors and stages the result, a fence, and the ranks that need the
 * result copy the slices. Both combine each element
 * in MPJ Express's tree order ({@link MstReduceOrder}) with its operator code ({@link MpjOperation}), or
 * with what that code computes, written out ({@link NumericOperator}).
 * Slicing is kept to predefined operators on single types: they work element by element, while a user
 * function may not, and a predefined operator on a pair type combines only the first {@code count}
 * elements of the vector it is given, so a slice would change which ones.
 *
 * <p>A short vector of {@code INT}, {@code LONG}, {@code FLOAT} or {@code DOUBLE} under {@code SUM},
 * {@code PROD}, {@code MAX} or {@code MIN} is combined straight from the slots into the receive buffer
 * ({@link SlotReduction}); any other is copied into heap vectors and combined by MPJ Express's operator
 * objects. Either allocates nothing once warm: the operator is resolved once per (operator, datatype)
 * ({@link OperationCache}), the tree's steps once per root, and the heap vectors are kept from call to call
 * ({@link PeerVectors}).
 *
 * <p>Left to MPJ Express (on every rank, agreed through the staging headers): non-zero offsets (MPJ
 * Express 0.44 then reduces elements {@code offset..count-1} only, and reads the receive buffer at the
 * send offset), the flat-tree algorithms of its configuration ({@code MPI.isOldSelected}), and vectors
 * larger than a staging slot. As in MPI, a non-root's receive buffer of {@code Reduce} is not written
 * (MPJ Express leaves partial results there).
 */
final class ShmReduce
{
    /** Up to this many bytes per vector, one rank combines the whole vector: a second fence costs more. */
    static final long WHOLE_VECTOR_BYTES = 16 * 1024;
    /**
     * Up to this many bytes per vector, a written-out operator combines straight from the slots. There each
     * element is read from every rank's slot on its own, where longer vectors are copied out in bulk; kept
     * to the short vectors it was measured on (1 and 8 doubles), where the work around the exchange counts.
     */
    static final long FROM_SLOTS_BYTES = 1024;

    private final StagingArea area;
    private final int rank;
    private final int size;
    private final OperationCache operations = new OperationCache();
    private final PeerVectors peerVectors;
    private final SlotReduction fromSlots;
    /** MPJ Express's tree per root ({@link MstReduceOrder#steps}), made at the first reduction to that root. */
    private final int[][] stepsByRoot;

    ShmReduce(final StagingArea area, final int rank, final int size)
    {
        this.area = area;
        this.rank = rank;
        this.size = size;
        this.peerVectors = new PeerVectors(size);
        this.fromSlots = new SlotReduction(area, size);
        this.stepsByRoot = new int[size][];
    }

    /** {@code Reduce} to {@code root}, or {@code Allreduce} when {@code root} is -1. False: MPJ Express runs it. */
    boolean reduce(final Object sendbuf, final int sendoffset, final Object recvbuf, final int recvoffset,
        final int count, final Datatype datatype, final Op op, final int root) throws MPIException
    {
        final boolean all = root == -1;
        final ElementType type = ElementType.of(datatype);
        final int elements = type == null ? -1 : Buffers.elements(count, datatype);
        final MpjOperation operation = type == null || op == null ? null : operations.of(op, datatype);
        final boolean needsResult = all || rank == root;
        final boolean ready = operation != null && !MPI.isOldSelected &&
            sendoffset == 0 && recvoffset == 0 && (all || root >= 0 && root < size) &&
            Buffers.holds(sendbuf, type, 0, elements) && (!needsResult || Buffers.holds(recvbuf, type, 0, elements)) &&
            elements * type.bytes() <= area.capacityBytes();
        area.writeHeader(rank, ready ? type : null, elements, StagingArea.NO_COUNT);
        if (ready)
        {
            type.copyIn(sendbuf, 0, area.segment(rank), area.writeOffset(), elements);
        }
        area.flagRound();
        if (!area.allReady())
        {
            return false;
        }
        final int treeRoot = all ? 0 : root;
        if (elements * type.bytes() <= WHOLE_VECTOR_BYTES || size == 1 || !operation.isPredefined() ||
            datatype.Size() != 1)
        {
            if (needsResult)
            {
                final NumericOperator numeric = operation.numeric();
                if (numeric != null && elements * type.bytes() <= FROM_SLOTS_BYTES)
                {
                    fromSlots.reduce(numeric, type, steps(treeRoot), treeRoot, recvbuf, elements);
                    return true;
                }
                final Object result = combine(type, 0, elements, treeRoot, operation, count);
                System.arraycopy(result, 0, recvbuf, 0, elements);
            }
            return true;
        }
        final int from = slice(count, rank);
        final int to = slice(count, rank + 1);
        final Object partial = combine(type, from, to - from, treeRoot, operation, to - from);
        type.copyIn(partial, 0, area.segment(rank), area.writeOffset() + from * type.bytes(), to - from);
        area.fence();
        if (needsResult)
        {
            for (int peer = 0; peer < size; peer++)
            {
                final int peerFrom = slice(count, peer);
                type.copyOut(area.segment(peer), area.readOffset() + peerFrom * type.bytes(), recvbuf, peerFrom,
                    slice(count, peer + 1) - peerFrom);
            }
        }
        return true;
    }

    /** MPJ Express's tree rooted at {@code treeRoot}, as steps. */
    private int[] steps(final int treeRoot)
    {
        int[] steps = stepsByRoot[treeRoot];
        if (steps == null)
        {
            steps = MstReduceOrder.steps(size, treeRoot);
            stepsByRoot[treeRoot] = steps;
        }
        return steps;
    }

    /** The first item of {@code rank}'s slice (and the end of the one before). */
    private int slice(final int count, final int sliceRank)
    {
        return (int)((long)count * sliceRank / size);
    }

    /**
     * Elements {@code from .. from + length - 1} of every rank's staged vector ({@code count} items),
     * combined in MPJ's tree order.
     */
    private Object combine(final ElementType type, final int from, final int length, final int treeRoot,
        final MpjOperation operation, final int count) throws MPIException
    {
        final Object[] vectors = peerVectors.of(type, length);
        for (int peer = 0; peer < size; peer++)
        {
            type.copyOut(area.segment(peer), area.readOffset() + from * type.bytes(), vectors[peer], 0, length);
        }
        return MstReduceOrder.reduce(vectors, steps(treeRoot), treeRoot, operation, count);
    }
}
