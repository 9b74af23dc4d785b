package mpi.rma.internal.attributes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.WinDeleteAttrFunction;
import mpi.rma.internal.message.MessageFaults;

/**
 * The user attributes of one window ({@code MPI_Win_set_attr}, {@code get_attr}, {@code delete_attr}, MPI-4.1
 * §7.7.4), in the order they were set, with the delete callback run whenever a value goes: deleted, replaced,
 * or dropped when the window is freed.
 */
public final class WindowAttributes
{
    /** The attributes by key, oldest setting first (a replaced value counts as set anew). */
    private final Map<Integer, Attribute> values = new LinkedHashMap<>();
    /** Runs a delete callback with the window it belongs to, which only the facade knows. */
    private final Deleting deleting;

    /**
     * How a delete callback is run: {@code Win} gives {@code (callback, keyval, value) -> callback.delete(this,
     * keyval, value)}, so that this class keeps the attributes without knowing the window's type.
     */
    @FunctionalInterface
    public interface Deleting
    {
        /** Runs {@code callback} for the window. */
        void delete(WinDeleteAttrFunction callback, int keyval, Object value);
    }

    /** The window's attributes, their delete callbacks run through {@code deleting}. */
    public WindowAttributes(final Deleting deleting)
    {
        this.deleting = deleting;
    }

    private record Attribute(Keyvals.Keyval key, Object value)
    {
    }

    /**
     * Sets {@code keyval}'s attribute to {@code value}; a value already set is first deleted, its callback run,
     * as if {@link #delete} were called (MPI-4.1 §7.7.4). A callback that throws leaves the old value.
     */
    public void set(final String call, final int keyval, final Object value)
    {
        final Keyvals.Keyval key = Keyvals.live(call, keyval);
        if (value == null)
        {
            throw new RmaException(ErrorClass.ERR_ARG, call + ": value is null: an attribute holds an object; " +
                "Win.deleteAttr removes one");
        }
        final Attribute old = values.get(keyval);
        if (old != null)
        {
            runDelete(call, old);
            values.remove(keyval);
        }
        values.put(keyval, new Attribute(key, value));
    }

    /** The attribute of {@code keyval}, null if none is set; ERR_KEYVAL for a key that names nothing. */
    public Object get(final String call, final int keyval)
    {
        Keyvals.live(call, keyval);
        final Attribute attribute = values.get(keyval);
        return attribute == null ? null : attribute.value();
    }

    /**
     * Deletes the attribute of {@code keyval}, running its delete callback; nothing if none is set (as in
     * MPICH). A callback that throws leaves the attribute.
     */
    public void delete(final String call, final int keyval)
    {
        Keyvals.live(call, keyval);
        final Attribute attribute = values.get(keyval);
        if (attribute != null)
        {
            runDelete(call, attribute);
            values.remove(keyval);
        }
    }

    /**
     * Deletes every attribute, at {@code Win.free}: the most recently set first. MPI-4.1 §7.7.4 asks only that
     * every delete callback run when the window is freed; the reverse order of setting is the one order MPI
     * specifies anywhere (attributes on {@code MPI_COMM_SELF} at {@code MPI_Finalize}, MPI-4.1 §11.2), and lets
     * a later attribute rely on an earlier one until it is gone. Every callback runs; the first that throws is
     * returned, to be thrown once the window is freed, null if none.
     */
    public RmaException deleteAll(final String call)
    {
        final List<Attribute> newestFirst = new ArrayList<>(values.values()).reversed();
        values.clear();
        RmaException first = null;
        for (final Attribute attribute : newestFirst)
        {
            try
            {
                runDelete(call, attribute);
            }
            catch (final RmaException e)
            {
                first = first == null ? e : first;
            }
        }
        return first;
    }

    private void runDelete(final String call, final Attribute attribute)
    {
        if (MessageFaults.skipsDeleteCallbacks())
        {
            return;
        }
        try
        {
            deleting.delete(attribute.key().delete(), attribute.key().id(), attribute.value());
        }
        catch (final RmaException e)
        {
            throw e;
        }
        catch (final RuntimeException e)
        {
            throw new RmaException(ErrorClass.ERR_OTHER, call + ": the delete callback of keyval=" +
                attribute.key().id() + " threw " + e, e);
        }
    }
}
