package mpi.rma;

import java.util.Set;

/**
 * The info keys a shared window understands (MPI-4.1 section 12.2.1), their checked values,
 * and the info {@link Win#getInfo()} reports.
 */
record WindowHints(boolean allocSharedNoncontig, boolean noLocks, boolean sameSize, boolean sameDispUnit,
    String accumulateOrdering, String accumulateOps)
{
    static final String ALLOC_SHARED_NONCONTIG = "alloc_shared_noncontig";
    static final String NO_LOCKS = "no_locks";
    static final String SAME_SIZE = "same_size";
    static final String SAME_DISP_UNIT = "same_disp_unit";
    static final String ACCUMULATE_ORDERING = "accumulate_ordering";
    static final String ACCUMULATE_OPS = "accumulate_ops";
    static final String DEFAULT_ORDERING = "rar,raw,war,waw";
    static final String DEFAULT_OPS = "same_op_no_op";
    private static final Set<String> ORDERINGS = Set.of("rar", "raw", "war", "waw");

    static WindowHints defaults()
    {
        return new WindowHints(false, false, false, false, DEFAULT_ORDERING, DEFAULT_OPS);
    }

    /** The hints in {@code info} (null: none); throws ERR_INFO_VALUE naming the key and value. */
    static WindowHints from(final Info info, final String call)
    {
        if (info == null)
        {
            return defaults();
        }
        return new WindowHints(
            bool(info, ALLOC_SHARED_NONCONTIG, call), bool(info, NO_LOCKS, call), bool(info, SAME_SIZE, call),
            bool(info, SAME_DISP_UNIT, call), ordering(info, call), ops(info, call));
    }

    /** These hints with alloc_shared_noncontig as the processes agreed on it. */
    WindowHints withNoncontig(final boolean noncontig)
    {
        return new WindowHints(noncontig, noLocks, sameSize, sameDispUnit, accumulateOrdering, accumulateOps);
    }

    /** The hints as {@link Win#getInfo()} reports them: every key, defaults included. */
    Info toInfo()
    {
        final Info info = new Info();
        info.set(ALLOC_SHARED_NONCONTIG, Boolean.toString(allocSharedNoncontig));
        info.set(NO_LOCKS, Boolean.toString(noLocks));
        info.set(SAME_SIZE, Boolean.toString(sameSize));
        info.set(SAME_DISP_UNIT, Boolean.toString(sameDispUnit));
        info.set(ACCUMULATE_ORDERING, accumulateOrdering);
        info.set(ACCUMULATE_OPS, accumulateOps);
        info.set("mpi_accumulate_granularity", "0");
        return info;
    }

    private static boolean bool(final Info info, final String key, final String call)
    {
        final String value = info.get(key);
        if (value == null)
        {
            return false;
        }
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT))
        {
            case "true" -> true;
            case "false" -> false;
            default -> throw new RmaException(ErrorClass.ERR_INFO_VALUE, call + ": info key " + key + "=\"" + value +
                "\" is not a boolean: give \"true\" or \"false\"");
        };
    }

    private static String ordering(final Info info, final String call)
    {
        final String value = info.get(ACCUMULATE_ORDERING);
        if (value == null)
        {
            return DEFAULT_ORDERING;
        }
        final String trimmed = value.trim();
        if (trimmed.equals("none"))
        {
            return trimmed;
        }
        for (final String part : trimmed.split(",", -1))
        {
            if (!ORDERINGS.contains(part.trim()))
            {
                throw new RmaException(ErrorClass.ERR_INFO_VALUE, call + ": info key " + ACCUMULATE_ORDERING + "=\"" +
                    value + "\": give \"none\" or a comma-separated list of rar, raw, war, waw");
            }
        }
        return trimmed;
    }

    private static String ops(final Info info, final String call)
    {
        final String value = info.get(ACCUMULATE_OPS);
        if (value == null)
        {
            return DEFAULT_OPS;
        }
        final String trimmed = value.trim();
        if (!trimmed.equals("same_op") && !trimmed.equals("same_op_no_op"))
        {
            throw new RmaException(ErrorClass.ERR_INFO_VALUE, call + ": info key " + ACCUMULATE_OPS + "=\"" + value +
                "\": give \"same_op\" or \"same_op_no_op\"");
        }
        return trimmed;
    }
}
