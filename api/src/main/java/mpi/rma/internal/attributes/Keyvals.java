package mpi.rma.internal.attributes;

import java.util.HashMap;
import java.util.Map;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.WinCopyAttrFunction;
import mpi.rma.WinDeleteAttrFunction;

/**
 * The attribute keys of this process's windows ({@code MPI_Win_create_keyval}, {@code MPI_Win_free_keyval},
 * MPI-4.1 §7.7.4): numbers from {@link #FIRST} on, never reused, each with its callbacks. A freed key names
 * nothing to later calls (MPI sets the caller's variable to {@code MPI_KEYVAL_INVALID}, which Java cannot), but
 * the attributes set with it live on until deleted, and their delete callback still runs (MPI-4.1 §7.7.4: the
 * key is freed once no attribute uses it).
 */
public final class Keyvals
{
    /** The first user key: the predefined window attributes are 1 to 5 ({@code Win.WIN_BASE} ...). */
    public static final int FIRST = 100;
    /** {@code Win.KEYVAL_INVALID}. */
    public static final int INVALID = -1;

    private static final Map<Integer, Keyval> KEYS = new HashMap<>();
    private static int next = FIRST;

    private Keyvals()
    {
    }

    /** A key and its callbacks. */
    record Keyval(int id, WinCopyAttrFunction copy, WinDeleteAttrFunction delete)
    {
    }

    /** A new key; ERR_ARG for a null callback. */
    public static synchronized int create(final WinCopyAttrFunction copy, final WinDeleteAttrFunction delete)
    {
        if (copy == null || delete == null)
        {
            throw new RmaException(ErrorClass.ERR_ARG, "Win.createKeyval: the " + (copy == null ? "copy" : "delete") +
                " callback is null: give WinCopyAttrFunction.NULL_COPY or WinDeleteAttrFunction.NULL_DELETE for none");
        }
        final int id = next++;
        KEYS.put(id, new Keyval(id, copy, delete));
        return id;
    }

    /** Frees {@code keyval}; ERR_KEYVAL for a predefined, unknown or freed key. */
    public static synchronized void free(final int keyval)
    {
        live("Win.freeKeyval", keyval);
        KEYS.remove(keyval);
    }

    /**
     * The key {@code keyval} names, for a call that sets or deletes its attribute.
     *
     * @throws RmaException ERR_KEYVAL for a predefined key, one never made, and a freed one.
     */
    static synchronized Keyval live(final String call, final int keyval)
    {
        final Keyval key = KEYS.get(keyval);
        if (key != null)
        {
            return key;
        }
        if (keyval > 0 && keyval < FIRST)
        {
            throw new RmaException(ErrorClass.ERR_KEYVAL, call + ": keyval=" + keyval + " is a predefined window " +
                "attribute (Win.WIN_BASE, WIN_SIZE, ...), which only Win.getAttr reads; make a key of your own with " +
                "Win.createKeyval");
        }
        throw new RmaException(ErrorClass.ERR_KEYVAL, call + ": keyval=" + keyval + (keyval >= FIRST && keyval < next ?
            " was freed (Win.freeKeyval)" : " was not made by Win.createKeyval") + ": make a key with Win.createKeyval");
    }
}
