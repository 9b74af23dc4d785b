package mpi.rma;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hints given to a window as key/value strings ({@code MPI_Info}). Keys the window does not
 * know are ignored, as MPI allows; the values of the keys it knows are checked when the
 * window is made ({@link ErrorClass#ERR_INFO_VALUE}). {@link Win#getInfo()} returns the hints
 * in effect.
 */
public final class Info
{
    /** {@code MPI_MAX_INFO_KEY}: longest key accepted. */
    public static final int MAX_INFO_KEY = 255;
    /** {@code MPI_MAX_INFO_VAL}: longest value accepted. */
    public static final int MAX_INFO_VAL = 1024;

    private final Map<String, String> entries = new LinkedHashMap<>();

    public Info()
    {
    }

    /** A copy of {@code other} ({@code MPI_Info_dup}). */
    public Info(final Info other)
    {
        if (other == null)
        {
            throw new RmaException(ErrorClass.ERR_INFO, "Info: the info to copy is null");
        }
        entries.putAll(other.entries);
    }

    /** Sets {@code key} to {@code value}, replacing an earlier value. */
    public void set(final String key, final String value)
    {
        checkKey("set", key);
        if (value == null)
        {
            throw new RmaException(ErrorClass.ERR_INFO_VALUE, "Info.set: value for key \"" + key + "\" is null");
        }
        if (value.length() > MAX_INFO_VAL)
        {
            throw new RmaException(ErrorClass.ERR_INFO_VALUE, "Info.set: value for key \"" + key + "\" has " +
                value.length() + " characters, more than MAX_INFO_VAL=" + MAX_INFO_VAL);
        }
        entries.put(key, value);
    }

    /** The value of {@code key}, or null if it has none. */
    public String get(final String key)
    {
        checkKey("get", key);
        return entries.get(key);
    }

    /** Removes {@code key}; removing a key that has no value is an error, as in {@code MPI_Info_delete}. */
    public void delete(final String key)
    {
        checkKey("delete", key);
        if (entries.remove(key) == null)
        {
            throw new RmaException(ErrorClass.ERR_INFO_NOKEY, "Info.delete: key \"" + key + "\" has no value");
        }
    }

    /** The keys that have a value, in the order they were first set. */
    public List<String> keys()
    {
        return List.copyOf(entries.keySet());
    }

    @Override
    public String toString()
    {
        return "Info" + entries;
    }

    private static void checkKey(final String call, final String key)
    {
        if (key == null || key.isEmpty())
        {
            throw new RmaException(ErrorClass.ERR_INFO_KEY, "Info." + call + ": key is " +
                (key == null ? "null" : "empty"));
        }
        if (key.length() > MAX_INFO_KEY)
        {
            throw new RmaException(ErrorClass.ERR_INFO_KEY, "Info." + call + ": key \"" + key.substring(0, 20) +
                "...\" has " + key.length() + " characters, more than MAX_INFO_KEY=" + MAX_INFO_KEY);
        }
    }
}
