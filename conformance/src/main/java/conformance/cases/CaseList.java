package conformance.cases;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseBody;
import conformance.Flavour;
import conformance.CaseGroup;

/** Collects the cases of one group. */
final class CaseList
{
    private final CaseGroup group;
    private final List<Case> cases = new ArrayList<>();

    CaseList(final CaseGroup group)
    {
        this.group = group;
    }

    CaseList add(final String id, final Behaviour behaviour, final String expectation, final String source,
        final CaseBody body)
    {
        return add(id, 1, behaviour, expectation, source, body);
    }

    CaseList add(final String id, final int minProcesses, final Behaviour behaviour, final String expectation,
        final String source, final CaseBody body)
    {
        cases.add(new Case(id, group, behaviour, expectation, source, minProcesses, body));
        return this;
    }

    /**
     * Restricts the case added last to allocateShared windows: it checks shared memory itself
     * (loads and stores of another process's segment, the layout of the segments, the unified
     * model), which the other flavours do not have. {@code why} is what the reports say.
     */
    CaseList sharedOnly(final String why)
    {
        return only(EnumSet.of(Flavour.SHARED), why);
    }

    /** Restricts the case added last to {@code flavours}, for the reason {@code why}. */
    CaseList only(final Set<Flavour> flavours, final String why)
    {
        final int last = cases.size() - 1;
        cases.set(last, cases.get(last).onlyFor(flavours, why));
        return this;
    }

    /**
     * Keeps the case added last off dynamic windows, for the reason {@code why}: it checks what a
     * window made with a size and a displacement unit has, or a check that a dynamic window's origin
     * cannot make (the target's memory is what it attached).
     */
    CaseList notDynamic(final String why)
    {
        return only(Flavour.SIZED, why);
    }

    /** The case added last needs processes on {@code nodes} nodes. */
    CaseList onNodes(final int nodes)
    {
        final int last = cases.size() - 1;
        cases.set(last, cases.get(last).onNodes(nodes));
        return this;
    }

    /** Restricts every case added so far to allocateShared windows, for the reason {@code why}. */
    CaseList allSharedOnly(final String why)
    {
        cases.replaceAll(c -> c.onlyFor(EnumSet.of(Flavour.SHARED), why));
        return this;
    }

    List<Case> list()
    {
        return List.copyOf(cases);
    }
}
