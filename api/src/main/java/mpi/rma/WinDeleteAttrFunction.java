package mpi.rma;

/**
 * The delete callback of a window attribute key ({@code MPI_Win_delete_attr_function}, MPI-4.1 §7.7.4), given
 * to {@link Win#createKeyval(WinCopyAttrFunction, WinDeleteAttrFunction)}: called with the value when an
 * attribute is deleted ({@link Win#deleteAttr}), replaced ({@link Win#setAttr} of a key already set) or
 * dropped by {@link Win#free}. Extra state is whatever the lambda captures. A callback that throws fails the
 * call that ran it, as a delete function returning an error code does in MPI: an {@link RmaException} as it
 * is, anything else as {@link ErrorClass#ERR_OTHER} naming the key.
 */
@FunctionalInterface
public interface WinDeleteAttrFunction
{
    /** {@code MPI_WIN_NULL_DELETE_FN}: nothing to do. */
    WinDeleteAttrFunction NULL_DELETE = (win, keyval, value) -> { };

    /**
     * @param win    the window the attribute was set on (usable: during {@link Win#free} the callbacks run
     *               before the window's memory is released).
     * @param keyval the attribute's key.
     * @param value  the value being deleted.
     */
    void delete(Win win, int keyval, Object value);
}
