package xdev.shmdev.coll;

import mpi.MPIException;

/**
 * The order in which MPJ Express 0.44 combines the ranks' vectors in {@code Reduce} (and so in
 * {@code Allreduce}, a {@code Reduce} to rank 0 then a {@code Bcast}): {@code PureIntracomm.MST_Reduce},
 * a minimum spanning tree that halves the range of ranks {@code [left, right]} at
 * {@code mid = (left + right) / 2}. The half holding the root reduces to the root; the other half
 * reduces to one of its ends, {@code right} when the root is in the lower half, else {@code left}; that
 * rank then sends its partial result to the root, which combines it into its own.
 *
 * <p>Floating-point sums depend on this order, so evaluating the same tree, with the same operand in
 * each role, is what makes the shared-memory result identical to MPJ Express's bit for bit.
 */
final class MstReduceOrder
{
    private MstReduceOrder()
    {
    }

    /**
     * Combines {@code count} items of {@code vectors} (one per rank, rank order) as MPJ Express's tree rooted
     * at {@code root} does, and returns the vector that holds the result. The vectors are changed in place.
     */
    static Object reduce(final Object[] vectors, final int root, final MpjOperation op, final int count)
        throws MPIException
    {
        return node(vectors, 0, vectors.length - 1, root, op, count);
    }

    private static Object node(final Object[] vectors, final int left, final int right, final int root,
        final MpjOperation op, final int count) throws MPIException
    {
        if (left == right)
        {
            return vectors[left];
        }
        final int mid = (left + right) / 2;
        final Object own;
        final Object child;
        if (root <= mid)
        {
            own = node(vectors, left, mid, root, op, count);
            child = node(vectors, mid + 1, right, right, op, count);
        }
        else
        {
            own = node(vectors, mid + 1, right, root, op, count);
            child = node(vectors, left, mid, left, op, count);
        }
        op.combine(own, child, count);
        return own;
    }
}
