package conformance;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How the windows of a case are made (MPI-4.1 §12.2): the flavour axis of the matrix. A case
 * asks its context for a window ({@link CaseContext#window}) and gets one of the configuration's
 * flavour, so that one body checks every flavour; a case about shared memory itself declares that
 * it applies to {@link #SHARED} only, and says why.
 */
public enum Flavour
{
    /** {@code Win.allocateShared}: one node, loads and stores of every segment. */
    SHARED("allocateShared"),
    /** {@code Win.create} over a Java array whose element type matches the case's displacement unit. */
    CREATE("create"),
    /** {@code Win.allocate}: memory from the library, targets reached by messages. */
    ALLOCATE("allocate"),
    /**
     * {@code Win.createDynamic}: each process attaches a Java array as {@link #CREATE} would pass, and
     * the processes exchange its address, which the cases' displacements are added to
     * ({@link CaseContext#disp}).
     */
    DYNAMIC("createDynamic");

    /** Every flavour. */
    public static final Set<Flavour> ALL = EnumSet.allOf(Flavour.class);
    /** The flavours whose targets other than the caller are reached by messages. */
    public static final Set<Flavour> MESSAGES = EnumSet.of(CREATE, ALLOCATE, DYNAMIC);
    /** Every flavour but the dynamic one: windows made with a size and a displacement unit of their own. */
    public static final Set<Flavour> SIZED = EnumSet.complementOf(EnumSet.of(DYNAMIC));

    private final String call;

    Flavour(final String call)
    {
        this.call = call;
    }

    /** The {@code Win} call that makes its windows, also the name the command line and reports use. */
    public String call()
    {
        return call;
    }

    /** The flavour named {@code name} (its call, any case), with an error listing the names otherwise. */
    public static Flavour named(final String name)
    {
        for (final Flavour flavour : values())
        {
            if (flavour.call.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT)) ||
                flavour.name().equalsIgnoreCase(name))
            {
                return flavour;
            }
        }
        throw new IllegalArgumentException("flavour " + name + " is unknown: give " +
            Arrays.stream(values()).map(Flavour::call).collect(Collectors.joining(", ")));
    }

    /** The calls of {@code flavours}, comma-separated, in declaration order. */
    public static String names(final Set<Flavour> flavours)
    {
        return flavours.stream().sorted().map(Flavour::call).collect(Collectors.joining(","));
    }

    /** The inverse of {@link #names}. */
    public static Set<Flavour> parse(final String names)
    {
        final Set<Flavour> flavours = EnumSet.noneOf(Flavour.class);
        for (final String name : names.split(","))
        {
            if (!name.isBlank())
            {
                flavours.add(named(name.strip()));
            }
        }
        return flavours;
    }
}
