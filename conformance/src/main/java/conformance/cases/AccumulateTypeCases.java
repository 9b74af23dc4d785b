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
 * accumulate with every operation on each of MPJ Express's eight basic types, MPI_ERR_OP for those MPI does not
 * define on it (docs/conformance-checklist.md#accumulate-family-and-atomicity): one case, and one method, per type.
 */
public final class AccumulateTypeCases
{
    private static final Reduction[] ACCUMULATE_OPS = OperationTexts.ACCUMULATE_OPS;

    private AccumulateTypeCases()
    {
    }

    public static List<Case> cases()
    {
        final CaseList list = new CaseList(CaseGroup.ACCUMULATE);
        add(list, Kind.BYTE, AccumulateTypeCases::typeByte);
        add(list, Kind.CHAR, AccumulateTypeCases::typeChar);
        add(list, Kind.SHORT, AccumulateTypeCases::typeShort);
        add(list, Kind.BOOLEAN, AccumulateTypeCases::typeBoolean);
        add(list, Kind.INT, AccumulateTypeCases::typeInt);
        add(list, Kind.LONG, AccumulateTypeCases::typeLong);
        add(list, Kind.FLOAT, AccumulateTypeCases::typeFloat);
        add(list, Kind.DOUBLE, AccumulateTypeCases::typeDouble);
        return list.list();
    }

    /** Adds the case of {@code kind}, whose body is {@code body}. */
    private static void add(final CaseList list, final Kind kind, final CaseBody body)
    {
        list.add("acc.type-" + OperationTexts.lower(kind), Behaviour.ACC_EVERY_TYPE,
            "every rank accumulates into each operation's " + kind.mpiName() + " of every rank, for each of " +
                OperationTexts.opsText(kind, true) + ", between fences: each element is the reduction of its initial " +
                "value and every rank's operand (REPLACE: one of the operands); " +
                OperationTexts.errorText(kind, true),
            "MPI-4.1 §12.3.4.1, §6.9.2 (the operations and the types they apply to); MPICH accfence1 (every type)",
            body);
    }

    private static void typeByte(final CaseContext c) throws Exception
    {
        accumulateEveryOp(c, Kind.BYTE);
    }

    private static void typeChar(final CaseContext c) throws Exception
    {
        accumulateEveryOp(c, Kind.CHAR);
    }

    private static void typeShort(final CaseContext c) throws Exception
    {
        accumulateEveryOp(c, Kind.SHORT);
    }

    private static void typeBoolean(final CaseContext c) throws Exception
    {
        accumulateEveryOp(c, Kind.BOOLEAN);
    }

    private static void typeInt(final CaseContext c) throws Exception
    {
        accumulateEveryOp(c, Kind.INT);
    }

    private static void typeLong(final CaseContext c) throws Exception
    {
        accumulateEveryOp(c, Kind.LONG);
    }

    private static void typeFloat(final CaseContext c) throws Exception
    {
        accumulateEveryOp(c, Kind.FLOAT);
    }

    private static void typeDouble(final CaseContext c) throws Exception
    {
        accumulateEveryOp(c, Kind.DOUBLE);
    }

    /** The value every rank's accumulate of {@code op} starts from. */
    private static long initial(final Kind kind, final Reduction op)
    {
        return switch (op)
        {
            case LAND -> kind.high();
            case LOR, LXOR -> 0;
            default -> kind.samples()[(op.ordinal() + 5) % 8];
        };
    }

    /** What rank {@code rank} accumulates with {@code op}: for the logical ops, true values with a zero low byte. */
    private static long operand(final Kind kind, final Reduction op, final int rank)
    {
        return switch (op)
        {
            case LAND, LXOR -> kind.high();
            case LOR -> rank == 0 ? kind.high() : 0;
            default -> kind.samples()[(op.ordinal() + rank) % 8];
        };
    }

    private static void accumulateEveryOp(final CaseContext c, final Kind kind) throws Exception
    {
        final Win win = c.window((long)ACCUMULATE_OPS.length * kind.bytes, kind.bytes);
        win.fence(0);
        for (int i = 0; i < ACCUMULATE_OPS.length; i++)
        {
            kind.store(c.memory(win), i, ACCUMULATE_OPS[i].appliesTo(kind) ? initial(kind, ACCUMULATE_OPS[i]) : 0);
        }
        win.fence(0);
        for (int target = 0; target < c.size(); target++)
        {
            for (int i = 0; i < ACCUMULATE_OPS.length; i++)
            {
                final Reduction op = ACCUMULATE_OPS[i];
                if (op.appliesTo(kind))
                {
                    win.accumulate(kind.one(operand(kind, op, c.rank())), 0, 1, kind.datatype(), target,
                        c.disp(win, target, i), 1, kind.datatype(), op.op());
                }
            }
        }
        final int right = (c.rank() + 1) % c.size();
        for (final Reduction op : Reduction.values())
        {
            if (!op.appliesTo(kind) || op == Reduction.NO_OP)
            {
                c.expectError(ErrorClass.ERR_OP, "accumulate(" + op.mpiName() + ") on " + kind.mpiName(),
                    () -> win.accumulate(kind.one(0), 0, 1, kind.datatype(), right, c.disp(win, right, 0), 1,
                        kind.datatype(), op.op()));
            }
        }
        win.fence(Win.MODE_NOSUCCEED);
        for (int i = 0; i < ACCUMULATE_OPS.length; i++)
        {
            final Reduction op = ACCUMULATE_OPS[i];
            if (!op.appliesTo(kind))
            {
                c.checkEquals(0, kind.load(c.memory(win), i), "element of " + op + ", which no call may change");
                continue;
            }
            final long actual = kind.load(c.memory(win), i);
            if (op == Reduction.REPLACE)
            {
                boolean found = false;
                for (int r = 0; r < c.size(); r++)
                {
                    found |= actual == operand(kind, op, r);
                }
                c.check(found, "REPLACE left " + kind.show(actual) + ", which no rank gave");
                continue;
            }
            long expected = initial(kind, op);
            for (int r = 0; r < c.size(); r++)
            {
                expected = op.apply(kind, expected, operand(kind, op, r));
            }
            if (expected != actual)
            {
                c.fail(op.mpiName() + " on " + kind.mpiName() + ": expected " + kind.show(expected) + ", got " +
                    kind.show(actual));
            }
        }
    }
}
