package mpi.rma;

/**
 * The copy callback of a window attribute key ({@code MPI_Win_copy_attr_function}, MPI-4.1 §7.7.4), given to
 * {@link Win#createKeyval(WinCopyAttrFunction, WinDeleteAttrFunction)}. MPI has no call that duplicates a
 * window, so no window ever calls it: it is kept so that a key is made as MPI makes it, and for
 * {@link #NULL_COPY} and {@link #DUP} as MPI names them. Extra state is whatever the lambda captures.
 */
@FunctionalInterface
public interface WinCopyAttrFunction
{
    /** {@code MPI_WIN_NULL_COPY_FN}: the attribute is not copied. */
    WinCopyAttrFunction NULL_COPY = (oldWin, keyval, value) -> null;
    /** {@code MPI_WIN_DUP_FN}: the copy holds the same value. */
    WinCopyAttrFunction DUP = (oldWin, keyval, value) -> value;

    /**
     * @param oldWin the window the attribute is set on.
     * @param keyval the attribute's key.
     * @param value  its value.
     * @return the copy's value, or null for no copy.
     */
    Object copy(Win oldWin, int keyval, Object value);
}
