package mpi.rma.internal;

import java.util.Locale;
import java.util.Set;

import mpi.rma.ErrorClass;
import mpi.rma.Info;
import mpi.rma.RmaException;

/**
 * The info keys a window understands (MPI-4.1 sections 12.2.1, 12.2.2, 12.2.3 and 12.7), their checked values,
 * and the info {@code Win.getInfo} reports. What each key changes is in docs/design.md#info-hints.
 *
 * @param minimumAlignment {@code mpi_minimum_memory_alignment}: as asked for until the window's memory is laid out,
 *                         then the alignment of this process's memory ({@link #withMinimumAlignment}); 0 when the
 *                         memory is the program's own (create, createDynamic), and then not reported.
 */
public record WindowHints(boolean allocSharedNoncontig, boolean noLocks, boolean sameSize, boolean sameDispUnit,
    String accumulateOrdering, String accumulateOps, long accumulateGranularity, long minimumAlignment)
{
    static final String ALLOC_SHARED_NONCONTIG = "alloc_shared_noncontig";
    static final String NO_LOCKS = "no_locks";
    static final String SAME_SIZE = "same_size";
    static final String SAME_DISP_UNIT = "same_disp_unit";
    static final String ACCUMULATE_ORDERING = "accumulate_ordering";
    static final String ACCUMULATE_OPS = "accumulate_ops";
    static final String ACCUMULATE_GRANULARITY = "mpi_accumulate_granularity";
    static final String MINIMUM_MEMORY_ALIGNMENT = "mpi_minimum_memory_alignment";
    static final String DEFAULT_ORDERING = "rar,raw,war,waw";
    static final String DEFAULT_OPS = "same_op_no_op";
    /**
     * The largest alignment the library can give: shared memory is mapped in pages of 4096 bytes, and a
     * segment starts on a page unless segments lie back to back.
     */
    public static final long MAX_ALIGNMENT_BYTES = 4096;
    private static final Set<String> ORDERINGS = Set.of("rar", "raw", "war", "waw");

    public static WindowHints defaults()
    {
        return new WindowHints(false, false, false, false, DEFAULT_ORDERING, DEFAULT_OPS, 0, 0);
    }

    /** The hints in {@code info} (null: none); throws ERR_INFO_VALUE naming the key, the value and what to give. */
    public static WindowHints from(final Info info, final String call)
    {
        if (info == null)
        {
            return defaults();
        }
        return new WindowHints(
            bool(info, ALLOC_SHARED_NONCONTIG, call), bool(info, NO_LOCKS, call), bool(info, SAME_SIZE, call),
            bool(info, SAME_DISP_UNIT, call), ordering(info, call), ops(info, call), granularity(info, call),
            alignment(info, call));
    }

    /** These hints with alloc_shared_noncontig as the processes agreed on it. */
    public WindowHints withNoncontig(final boolean noncontig)
    {
        return new WindowHints(noncontig, noLocks, sameSize, sameDispUnit, accumulateOrdering, accumulateOps,
            accumulateGranularity, minimumAlignment);
    }

    /** These hints with the alignment of the window's memory as laid out (0: the program's own memory). */
    public WindowHints withMinimumAlignment(final long alignmentBytes)
    {
        return new WindowHints(allocSharedNoncontig, noLocks, sameSize, sameDispUnit, accumulateOrdering,
            accumulateOps, accumulateGranularity, alignmentBytes);
    }

    /** The hints as {@code Win.getInfo} reports them: every key, defaults included. */
    public Info toInfo()
    {
        final Info info = new Info();
        info.set(ALLOC_SHARED_NONCONTIG, Boolean.toString(allocSharedNoncontig));
        info.set(NO_LOCKS, Boolean.toString(noLocks));
        info.set(SAME_SIZE, Boolean.toString(sameSize));
        info.set(SAME_DISP_UNIT, Boolean.toString(sameDispUnit));
        info.set(ACCUMULATE_ORDERING, accumulateOrdering);
        info.set(ACCUMULATE_OPS, accumulateOps);
        info.set(ACCUMULATE_GRANULARITY, Long.toString(accumulateGranularity));
        if (minimumAlignment > 0)
        {
            info.set(MINIMUM_MEMORY_ALIGNMENT, Long.toString(minimumAlignment));
        }
        return info;
    }

    private static boolean bool(final Info info, final String key, final String call)
    {
        final String value = info.get(key);
        if (value == null)
        {
            return false;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT))
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

    /** A whole number of bytes, 0 (no preference) or more. */
    private static long granularity(final Info info, final String call)
    {
        final String value = info.get(ACCUMULATE_GRANULARITY);
        final long bytes = value == null ? 0 : number(value);
        if (bytes < 0)
        {
            throw new RmaException(ErrorClass.ERR_INFO_VALUE, call + ": info key " + ACCUMULATE_GRANULARITY + "=\"" +
                value + "\": give a whole number of bytes, 0 (no preference) or more, such as \"8\"");
        }
        return bytes;
    }

    /** A power of two from 1 to {@link #MAX_ALIGNMENT_BYTES}; 0 when the key is absent. */
    private static long alignment(final Info info, final String call)
    {
        final String value = info.get(MINIMUM_MEMORY_ALIGNMENT);
        if (value == null)
        {
            return 0;
        }
        final long bytes = number(value);
        if (bytes < 1 || bytes > MAX_ALIGNMENT_BYTES || Long.bitCount(bytes) != 1)
        {
            throw new RmaException(ErrorClass.ERR_INFO_VALUE, call + ": info key " + MINIMUM_MEMORY_ALIGNMENT + "=\"" +
                value + "\": give a power of two from 1 to " + MAX_ALIGNMENT_BYTES + " (1, 2, 4, ..., 64, ..., " +
                MAX_ALIGNMENT_BYTES + "), the bytes of alignment the window's memory must have");
        }
        return bytes;
    }

    /** The decimal number in {@code value}, or -1 if it is none. */
    private static long number(final String value)
    {
        try
        {
            return Long.parseLong(value.trim());
        }
        catch (final NumberFormatException e)
        {
            return -1;
        }
    }
}
