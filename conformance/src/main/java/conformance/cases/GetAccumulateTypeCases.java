package conformance.cases;

import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseBody;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.rma.ErrorClass;
import mpi.rma.Win;

/**
 * getAccumulate with every operation on each of MPJ Express's eight basic types, MPI_ERR_OP for those MPI does not
 * define on it (docs/conformance-checklist.md#accumulate-family-and-atomicity): one case, and one method, per type.
 */
public final class GetAccumulateTypeCases
{
    private GetAccumulateTypeCases()
    {
    }

    public static List<Case> cases()
    {
        final CaseList list = new CaseList(CaseGroup.ACCUMULATE);
        add(list, Kind.BYTE, GetAccumulateTypeCases::typeByte);
        add(list, Kind.CHAR, GetAccumulateTypeCases::typeChar);
        add(list, Kind.SHORT, GetAccumulateTypeCases::typeShort);
        add(list, Kind.BOOLEAN, GetAccumulateTypeCases::typeBoolean);
        add(list, Kind.INT, GetAccumulateTypeCases::typeInt);
        add(list, Kind.LONG, GetAccumulateTypeCases::typeLong);
        add(list, Kind.FLOAT, GetAccumulateTypeCases::typeFloat);
        add(list, Kind.DOUBLE, GetAccumulateTypeCases::typeDouble);
        return list.list();
    }

    /** Adds the case of {@code kind}, whose body is {@code body}. */
    private static void add(final CaseList list, final Kind kind, final CaseBody body)
    {
        list.add("gacc.type-" + OperationTexts.lower(kind), Behaviour.ACC_EVERY_TYPE,
            "each rank calls getAccumulate on its right neighbour's " + kind.mpiName() + " once per operation (" +
                OperationTexts.opsText(kind, false) + "), results at their own offsets of one array: each result is " +
                "the old value, and the neighbour's element becomes the operation's result; " +
                OperationTexts.errorText(kind, false),
            "MPI-4.1 §12.3.4.2, §6.9.2; MPICH get_accumulate (the types it is built for)",
            body);
    }

    private static void typeByte(final CaseContext c) throws Exception
    {
        getAccumulateEveryOp(c, Kind.BYTE);
    }

    private static void typeChar(final CaseContext c) throws Exception
    {
        getAccumulateEveryOp(c, Kind.CHAR);
    }

    private static void typeShort(final CaseContext c) throws Exception
    {
        getAccumulateEveryOp(c, Kind.SHORT);
    }

    private static void typeBoolean(final CaseContext c) throws Exception
    {
        getAccumulateEveryOp(c, Kind.BOOLEAN);
    }

    private static void typeInt(final CaseContext c) throws Exception
    {
        getAccumulateEveryOp(c, Kind.INT);
    }

    private static void typeLong(final CaseContext c) throws Exception
    {
        getAccumulateEveryOp(c, Kind.LONG);
    }

    private static void typeFloat(final CaseContext c) throws Exception
    {
        getAccumulateEveryOp(c, Kind.FLOAT);
    }

    private static void typeDouble(final CaseContext c) throws Exception
    {
        getAccumulateEveryOp(c, Kind.DOUBLE);
    }

    /** The value {@code owner}'s element of {@code op} starts from in getAccumulate's cases. */
    private static long fetchInitial(final Kind kind, final Reduction op, final int owner)
    {
        return switch (op)
        {
            case LAND, LXOR -> kind.high();
            case LOR -> 0;
            default -> kind.samples()[(op.ordinal() + owner) % 8];
        };
    }

    /** What {@code origin} combines into its right neighbour's element of {@code op}. */
    private static long fetchOperand(final Kind kind, final Reduction op, final int origin)
    {
        return switch (op)
        {
            case LAND -> 0;
            case LOR, LXOR -> kind.high();
            default -> kind.samples()[(op.ordinal() + origin + 3) % 8];
        };
    }

    private static void getAccumulateEveryOp(final CaseContext c, final Kind kind) throws Exception
    {
        final Reduction[] ops = Reduction.values();
        final Win win = c.window((long)ops.length * kind.bytes, kind.bytes);
        final int right = (c.rank() + 1) % c.size();
        final int left = (c.rank() + c.size() - 1) % c.size();
        win.fence(0);
        for (int i = 0; i < ops.length; i++)
        {
            kind.store(c.memory(win), i, ops[i].appliesTo(kind) ? fetchInitial(kind, ops[i], c.rank()) : 0);
        }
        win.fence(0);
        final Object results = kind.array(ops.length);
        for (int i = 0; i < ops.length; i++)
        {
            final Reduction op = ops[i];
            final int slot = i;
            if (op.appliesTo(kind))
            {
                win.getAccumulate(kind.one(fetchOperand(kind, op, c.rank())), 0, 1, kind.datatype(), results, i, 1,
                    kind.datatype(), right, c.disp(win, right, i), 1, kind.datatype(), op.op());
            }
            else
            {
                c.expectError(ErrorClass.ERR_OP, "getAccumulate(" + op.mpiName() + ") on " + kind.mpiName(),
                    () -> win.getAccumulate(kind.one(0), 0, 1, kind.datatype(), results, slot, 1, kind.datatype(),
                        right, c.disp(win, right, slot), 1, kind.datatype(), op.op()));
            }
        }
        win.fence(Win.MODE_NOSUCCEED);
        for (int i = 0; i < ops.length; i++)
        {
            final Reduction op = ops[i];
            if (!op.appliesTo(kind))
            {
                c.checkEquals(0, kind.load(c.memory(win), i), "element of " + op + ", which no call may change");
                continue;
            }
            final long old = fetchInitial(kind, op, right);
            if (kind.get(results, i) != old)
            {
                c.fail(op.mpiName() + ": fetched " + kind.show(kind.get(results, i)) + ", expected the old " +
                    kind.show(old));
            }
            final long expected = op.apply(kind, fetchInitial(kind, op, c.rank()), fetchOperand(kind, op, left));
            final long actual = kind.load(c.memory(win), i);
            if (expected != actual)
            {
                c.fail(op.mpiName() + " on " + kind.mpiName() + ": own element is " + kind.show(actual) +
                    ", expected " + kind.show(expected));
            }
        }
    }
}
