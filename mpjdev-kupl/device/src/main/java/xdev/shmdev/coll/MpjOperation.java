package xdev.shmdev.coll;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Array;

import mpi.Datatype;
import mpi.MPIException;
import mpi.Op;
import mpi.OpWorker;
import mpi.User_function;

/**
 * One step of MPJ Express's reduction, done by MPJ Express's own code: its operator classes
 * ({@code SumDouble}, ..., and user functions such as {@code Maxloc}) called as
 * {@code PureIntracomm.MST_Reduce} calls them when a tree node combines its partial result with a
 * child's. Calling them, rather than re-writing each operator, is what makes results identical bit for
 * bit, quirks included (a predefined operator on a pair type combines only the first {@code count}
 * elements, as in MPJ Express).
 *
 * <p>Resolved once per operator and datatype ({@link #resolve}) and reused by every call, so that a step
 * allocates nothing: MPJ Express asks the operator's worker for a new step object per call, whose
 * {@code createInitialBuffer} copies the partial result into a new array {@code arr}, then {@code perform}
 * computes {@code arr[i] = f(buf[i], arr[i])} with the child in {@code buf}, and {@code getResultant} copies
 * {@code arr} back. Here one step object is kept, its {@code arr} is pointed at the partial result itself,
 * and {@code perform} is given the child: the same function on the same operands in the same roles, without
 * the new array and the two copies. A step class without such an {@code arr} field (not MPJ Express 0.44's)
 * gets MPJ Express's whole sequence instead.
 *
 * <p>The operator's worker and function are package-private fields of {@code mpi.Op}; they are read
 * through a private lookup, which the class path (unnamed module) allows.
 */
final class MpjOperation
{
    private static final VarHandle WORKER;
    private static final VarHandle FUNCTION;
    private static final MethodHandle CREATE_INITIAL_BUFFER;
    private static final MethodHandle PERFORM;
    private static final MethodHandle GET_RESULTANT;
    /** The name of the partial-result array in each of MPJ Express 0.44's step classes. */
    private static final String STEP_ARRAY_FIELD = "arr";

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Op.class, MethodHandles.lookup());
            WORKER = lookup.findVarHandle(Op.class, "worker", OpWorker.class);
            FUNCTION = lookup.findVarHandle(Op.class, "funct", User_function.class);
            final MethodType step = MethodType.methodType(void.class, Object.class, int.class, int.class);
            CREATE_INITIAL_BUFFER = lookup.findVirtual(Op.class, "createInitialBuffer", step);
            PERFORM = lookup.findVirtual(Op.class, "perform", step);
            GET_RESULTANT = lookup.findVirtual(Op.class, "getResultant", step);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError("MPJ Express's mpi.Op is not the 0.44 one this code knows: " + e);
        }
    }

    private final User_function function;
    private final Datatype datatype;
    /** The worker's step for this datatype; null for a user function. */
    private final Op step;
    /** {@code (Object partial)void}: sets the step's {@code arr}; null when the step has no such field. */
    private final MethodHandle setStepArray;
    /** {@code (Object child, int offset, int count)void}: the step's {@code perform}. */
    private final MethodHandle performStep;
    /** The step written out, for combining straight from the slots; null when it is not one of those. */
    private final NumericOperator numeric;

    private MpjOperation(final User_function function, final Datatype datatype, final Op step,
        final MethodHandle setStepArray)
    {
        this.function = function;
        this.datatype = datatype;
        this.step = step;
        this.setStepArray = setStepArray;
        this.performStep = step == null ? null : PERFORM.bindTo(step);
        this.numeric = NumericOperator.of(step, datatype);
    }

    /**
     * {@code op} on items of {@code datatype}, or null when MPJ Express must
     * run the reduction: an operator with neither worker nor function, or a worker that refuses the datatype
     * (e.g. {@code MPI.SUM} on {@code MPI.BOOLEAN}; MPJ Express then reports it in its own words).
     */
    static MpjOperation resolve(final Op op, final Datatype datatype)
    {
        final OpWorker worker = (OpWorker)WORKER.get(op);
        final User_function function = (User_function)FUNCTION.get(op);
        if (worker == null)
        {
            return function == null ? null : new MpjOperation(function, datatype, null, null);
        }
        final Op step;
        try
        {
            step = worker.getWorker(datatype);
        }
        catch (final MPIException e)
        {
            return null;
        }
        return step == null ? null : new MpjOperation(null, datatype, step, stepArraySetter(step));
    }

    /** A setter of {@code step}'s partial-result array, bound to it, or null if its class has none. */
    private static MethodHandle stepArraySetter(final Op step)
    {
        try
        {
            final Class<? extends Op> type = step.getClass();
            final MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
            final Class<?> arrayType = type.getDeclaredField(STEP_ARRAY_FIELD).getType();
            return lookup.findSetter(type, STEP_ARRAY_FIELD, arrayType).bindTo(step)
                .asType(MethodType.methodType(void.class, Object.class));
        }
        catch (final ReflectiveOperationException e)
        {
            return null;
        }
    }

    /** Whether the operator is one of MPJ Express's predefined ones (a worker), not a user function. */
    boolean isPredefined()
    {
        return step != null;
    }

    /** The operator written out ({@link NumericOperator}), or null when only MPJ Express's objects compute it. */
    NumericOperator numeric()
    {
        return numeric;
    }

    /**
     * {@code partial} becomes what MPJ Express's tree node holds after receiving {@code child} into it and
     * combining {@code count} items: for a predefined operator the worker's result of (partial, child); for a
     * user function {@code Call(child, partial)}, the child's vector being the function's {@code invec}. Both
     * arrays hold exactly the vector's elements; {@code child} may be changed (it is not used again).
     */
    void combine(final Object partial, final Object child, final int count) throws MPIException
    {
        if (step == null)
        {
            // MST_Reduce: tmp = copy of partial; recv child into buf; funct.Call(buf, tmp); buf = tmp. The
            // same call on the same values in the same roles, with partial as tmp and child as buf.
            function.Call(child, 0, partial, 0, count, datatype);
            return;
        }
        try
        {
            if (setStepArray != null)
            {
                setStepArray.invokeExact(partial);
                performStep.invokeExact(child, 0, count);
                // Not kept: a long vector's partial result would otherwise live as long as this operation.
                setStepArray.invokeExact((Object)null);
                return;
            }
            // MST_Reduce: createInitialBuffer(buf); recv child into buf; perform(buf); getResultant(buf).
            CREATE_INITIAL_BUFFER.invokeExact(step, partial, 0, count);
            System.arraycopy(child, 0, partial, 0, Array.getLength(partial));
            PERFORM.invokeExact(step, partial, 0, count);
            GET_RESULTANT.invokeExact(step, partial, 0, count);
        }
        catch (final RuntimeException | Error e)
        {
            throw e;
        }
        catch (final Throwable e)
        {
            throw new MPIException(e);
        }
    }
}
