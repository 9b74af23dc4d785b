package conformance.cases;

import java.util.ArrayList;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseBody;
import conformance.Group;

/** Collects the cases of one group. */
final class CaseList
{
    private final Group group;
    private final List<Case> cases = new ArrayList<>();

    CaseList(final Group group)
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

    List<Case> list()
    {
        return List.copyOf(cases);
    }
}
