package mpi.rma.internal.vocabulary;

import mpi.Datatype;
import mpi.Op;
import mpi.User_function;

/**
 * The two accumulate operations MPI-3 adds and MPJ Express lacks ({@code MPI_REPLACE}, {@code MPI_NO_OP});
 * {@code Win.REPLACE} and {@code Win.NO_OP} are these very objects, so that the api recognises them by identity.
 */
public final class ExtraOps
{
    /** The target element becomes the origin element. */
    public static final Op REPLACE = newOp(true);
    /** The target is read, not changed (getAccumulate and fetchAndOp only). */
    public static final Op NO_OP = newOp(false);

    private ExtraOps()
    {
    }

    private static Op newOp(final boolean replace)
    {
        // Usable in MPJ Express reductions too: REPLACE keeps the incoming value, NO_OP the existing one.
        return new Op(new User_function()
        {
            @Override
            public void Call(final Object in, final int inOffset, final Object inOut, final int inOutOffset,
                final int count, final Datatype datatype)
            {
                if (replace)
                {
                    System.arraycopy(in, inOffset, inOut, inOutOffset, count);
                }
            }
        }, true);
    }
}
