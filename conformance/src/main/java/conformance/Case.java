package conformance;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One behaviour of MPI-3 windows, as an executable check.
 *
 * @param id           short stable name, e.g. {@code query.proc-null-lowest-nonzero}; the reports key on it.
 * @param group        the group it belongs to.
 * @param behaviour    the checklist entry it checks ({@code docs/conformance-checklist.md}).
 * @param expectation  the behaviour the standard asks for, with the error class when it is an error.
 * @param source       where that comes from: a section of MPI-4.1 ("MPI-4.1 §12.2.3"), a test of
 *                     MPICH's suite by name, or a decision of this project
 *                     (a heading of {@code docs/design.md}, e.g. {@code docs/design.md#proc-null-targets}).
 * @param minProcesses fewest processes the case needs; with fewer it is skipped.
 * @param body         the check, run by every rank: a method named after the id ({@code CaseMethodsTest}).
 * @param flavours     the window flavours it applies to; in a configuration of another flavour it is skipped.
 * @param flavourNote  why it does not apply to every flavour ("" when it does), for the reports.
 * @param minNodes     fewest nodes the case needs (2 for the cases about jobs that span nodes).
 */
public record Case(String id, CaseGroup group, Behaviour behaviour, String expectation, String source, int minProcesses,
    CaseBody body, Set<Flavour> flavours, String flavourNote, int minNodes)
{
    public Case
    {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(behaviour, "behaviour");
        Objects.requireNonNull(expectation, "expectation");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(flavourNote, "flavourNote");
        if (minProcesses < 1)
        {
            throw new IllegalArgumentException("minProcesses=" + minProcesses + " must be at least 1 (case " + id + ")");
        }
        if (minNodes < 1 || minNodes > minProcesses)
        {
            throw new IllegalArgumentException("minNodes=" + minNodes + " must be 1 to minProcesses (case " + id + ")");
        }
        if (flavours.isEmpty())
        {
            throw new IllegalArgumentException("case " + id + " applies to no flavour");
        }
        if (!flavours.equals(Flavour.ALL) && flavourNote.isBlank())
        {
            throw new IllegalArgumentException("case " + id + " applies to " + Flavour.names(flavours) +
                " only: say why (flavourNote)");
        }
        flavours = Set.copyOf(EnumSet.copyOf(flavours));
    }

    /** A case of every flavour, on one node or more. */
    public Case(final String id, final CaseGroup group, final Behaviour behaviour, final String expectation,
        final String source, final int minProcesses, final CaseBody body)
    {
        this(id, group, behaviour, expectation, source, minProcesses, body, Flavour.ALL, "", 1);
    }

    /** This case restricted to {@code only}, with the reason the reports give. */
    public Case onlyFor(final Set<Flavour> only, final String why)
    {
        return new Case(id, group, behaviour, expectation, source, minProcesses, body, only, why, minNodes);
    }

    /** This case, needing processes on {@code nodes} nodes at least. */
    public Case onNodes(final int nodes)
    {
        return new Case(id, group, behaviour, expectation, source, minProcesses, body, flavours, flavourNote, nodes);
    }

    /** Whether it runs with windows of {@code flavour}. */
    public boolean appliesTo(final Flavour flavour)
    {
        return flavours.contains(flavour);
    }
}
