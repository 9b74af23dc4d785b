package conformance;

import java.util.Objects;

/**
 * One behaviour of MPI-3 shared windows, as an executable check.
 *
 * @param id           short stable name, e.g. {@code query.proc-null-lowest-nonzero}; the reports key on it.
 * @param group        the group it belongs to.
 * @param behaviour    the checklist entry it checks ({@code docs/conformance-checklist.md}).
 * @param expectation  the behaviour the standard asks for, with the error class when it is an error.
 * @param source       where that comes from: a section of MPI-4.1 ("MPI-4.1 §12.2.3"), a test of
 *                     MPICH's suite by name, or a decision of this project
 *                     (a heading of {@code docs/design.md}, e.g. {@code docs/design.md#proc-null-targets}).
 * @param minProcesses fewest processes the case needs; with fewer it is skipped.
 * @param body         the check, run by every rank.
 */
public record Case(String id, Group group, Behaviour behaviour, String expectation, String source, int minProcesses, CaseBody body)
{
    public Case
    {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(behaviour, "behaviour");
        Objects.requireNonNull(expectation, "expectation");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(body, "body");
        if (minProcesses < 1)
        {
            throw new IllegalArgumentException("minProcesses=" + minProcesses + " must be at least 1 (case " + id + ")");
        }
    }
}
