package xdev.shmdev.coll;

import mpi.Datatype;
import mpi.Op;

/**
 * The reduction operators a communicator has used, each resolved once per ({@code Op}, {@code Datatype})
 * ({@link MpjOperation#resolve}), so that a call finds its operator without allocating. A handful of
 * entries, searched in order: programs reduce with few operators; when more alternate, the oldest entry is
 * resolved again (a few objects, still the same results).
 */
final class OperationCache
{
    /** Entries kept: more than the (operator, type) pairs of a typical solver's loop. */
    static final int ENTRIES = 8;

    private final Op[] ops = new Op[ENTRIES];
    private final Datatype[] datatypes = new Datatype[ENTRIES];
    private final MpjOperation[] operations = new MpjOperation[ENTRIES];
    private final boolean[] resolved = new boolean[ENTRIES];
    private int next;

    /** {@code op} on {@code datatype} ({@link MpjOperation#resolve}: null when MPJ Express must run it). */
    MpjOperation of(final Op op, final Datatype datatype)
    {
        for (int i = 0; i < ENTRIES; i++)
        {
            if (resolved[i] && ops[i] == op && datatypes[i] == datatype)
            {
                return operations[i];
            }
        }
        final MpjOperation operation = MpjOperation.resolve(op, datatype);
        final int entry = next;
        next = (next + 1) % ENTRIES;
        ops[entry] = op;
        datatypes[entry] = datatype;
        operations[entry] = operation;
        resolved[entry] = true;
        return operation;
    }
}
