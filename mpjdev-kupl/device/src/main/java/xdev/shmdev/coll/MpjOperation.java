package xdev.shmdev.coll;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

import mpi.Datatype;
import mpi.MPIException;
import mpi.Op;
import mpi.OpWorker;
import mpi.User_function;

/**
 * One step of MPJ Express's reduction, done by MPJ Express's own code: its operator classes
 * ({@code SumWorker}, ..., and user functions such as {@code Maxloc}) called exactly as
 * {@code PureIntracomm.MST_Reduce} calls them when a tree node combines its partial result with a
 * child's. Calling them, rather than re-writing each operator, is what makes results identical bit for
 * bit, quirks included (a predefined operator on a pair type combines only the first {@code count}
 * elements, as in MPJ Express).
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

    private final OpWorker worker;
    private final User_function function;
    private final Datatype datatype;
    private final ElementType elementType;
    private final int count;
    private final int elements;

    /** {@code count} items of {@code datatype} ({@code elements} array elements) combined with {@code op}. */
    MpjOperation(final Op op, final Datatype datatype, final ElementType elementType, final int count,
        final int elements)
    {
        this.worker = (OpWorker)WORKER.get(op);
        this.function = (User_function)FUNCTION.get(op);
        this.datatype = datatype;
        this.elementType = elementType;
        this.count = count;
        this.elements = elements;
    }

    /** Whether MPJ Express can reduce with this operator (it has either a worker or a user function). */
    boolean isDefined()
    {
        return worker != null || function != null;
    }

    /** Whether the operator is one of MPJ Express's predefined ones (a worker), not a user function. */
    boolean isPredefined()
    {
        return worker != null;
    }

    /**
     * {@code partial} becomes what MPJ Express's tree node holds after receiving {@code child} into it and
     * combining: for a predefined operator the worker's result of (partial, child); for a user function
     * {@code Call(child, partial)}, the child's vector being the function's {@code invec}.
     */
    void combine(final Object partial, final Object child) throws MPIException
    {
        if (worker == null)
        {
            // MST_Reduce: tmp = copy of partial; recv child into buf; funct.Call(buf, tmp); buf = tmp.
            final Object tmp = elementType.newArray(elements);
            System.arraycopy(partial, 0, tmp, 0, elements);
            System.arraycopy(child, 0, partial, 0, elements);
            function.Call(partial, 0, tmp, 0, count, datatype);
            System.arraycopy(tmp, 0, partial, 0, elements);
            return;
        }
        // MST_Reduce: createInitialBuffer(buf); recv child into buf; perform(buf); getResultant(buf).
        final Op step = worker.getWorker(datatype);
        invoke(CREATE_INITIAL_BUFFER, step, partial);
        System.arraycopy(child, 0, partial, 0, elements);
        invoke(PERFORM, step, partial);
        invoke(GET_RESULTANT, step, partial);
    }

    private void invoke(final MethodHandle method, final Op step, final Object buffer) throws MPIException
    {
        try
        {
            method.invokeExact(step, buffer, 0, count);
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
