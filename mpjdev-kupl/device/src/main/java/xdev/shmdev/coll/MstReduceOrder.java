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
 * each role, is what makes the shared-memory result identical to MPJ Express's bit for bit. The tree is
 * written out once as {@linkplain #steps steps}, so that both ways of combining (heap vectors through MPJ
 * Express's operator classes, and values read straight from the slots) follow the one order.
 */
final class MstReduceOrder
{
    private MstReduceOrder()
    {
    }

    /**
     * The tree rooted at {@code root} over {@code size} ranks as pairs {@code (own, child)}, in the order the
     * tree evaluates them: at each step the partial result held for rank {@code own} becomes
     * {@code f(child's partial, own's partial)}. After the last step {@code root}'s partial is the result.
     */
    static int[] steps(final int size, final int root)
    {
        final int[] steps = new int[2 * (size - 1)];
        final int written = node(steps, 0, 0, size - 1, root);
        assert written == steps.length;
        return steps;
    }

    /** Appends the steps of the subtree {@code [left, right]} rooted at {@code root} from {@code at}; returns the end. */
    private static int node(final int[] steps, final int at, final int left, final int right, final int root)
    {
        if (left == right)
        {
            return at;
        }
        final int mid = (left + right) / 2;
        final int child;
        int next;
        if (root <= mid)
        {
            next = node(steps, at, left, mid, root);
            child = right;
            next = node(steps, next, mid + 1, right, child);
        }
        else
        {
            next = node(steps, at, mid + 1, right, root);
            child = left;
            next = node(steps, next, left, mid, child);
        }
        steps[next] = root;
        steps[next + 1] = child;
        return next + 2;
    }

    /**
     * Combines {@code count} items of {@code vectors} (one per rank, rank order) along {@code steps} with
     * MPJ Express's operator, and returns the vector that holds the result, {@code root}'s. The vectors are
     * changed in place.
     */
    static Object reduce(final Object[] vectors, final int[] steps, final int root, final MpjOperation op,
        final int count) throws MPIException
    {
        for (int step = 0; step < steps.length; step += 2)
        {
            op.combine(vectors[steps[step]], vectors[steps[step + 1]], count);
        }
        return vectors[root];
    }
}
