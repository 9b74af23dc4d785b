package conformance.cases;

import conformance.CaseContext;
import mpi.rma.Win;

/** Rank 0's first elements, which the fetchAndOp and compareAndSwap cases on every type start from and check. */
final class RootElement
{
    private RootElement()
    {
    }

    /** Rank 0 stores {@code value} into element 0 of its memory between fences; the others wait in them. */
    static void storeAtRoot(final CaseContext c, final Win win, final Kind kind, final long value)
    {
        win.fence(0);
        if (c.isRoot())
        {
            kind.store(c.memory(win), 0, value);
        }
        win.fence(Win.MODE_NOSUCCEED);
    }

    /** Element {@code index} of rank 0, read with fetchAndOp(NO_OP) in a lockAll epoch of its own. */
    static long finalValue(final CaseContext c, final Win win, final Kind kind, final int index)
    {
        final Object result = kind.array(1);
        win.lockAll(0);
        win.fetchAndOp(null, 0, result, 0, kind.datatype(), 0, c.disp(win, 0, index), Win.NO_OP);
        win.flush(0);
        win.unlockAll();
        return kind.get(result, 0);
    }
}
