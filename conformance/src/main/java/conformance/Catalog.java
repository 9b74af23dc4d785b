package conformance;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import conformance.cases.AccumulateCases;
import conformance.cases.AccumulateTypeCases;
import conformance.cases.AllocationCases;
import conformance.cases.AttributeCases;
import conformance.cases.CompareAndSwapTypeCases;
import conformance.cases.DatatypeAccumulateCases;
import conformance.cases.DatatypeCases;
import conformance.cases.DispUnitCases;
import conformance.cases.DynamicCases;
import conformance.cases.DynamicEdgeCases;
import conformance.cases.EpochErrorCases;
import conformance.cases.ErrorClassCases;
import conformance.cases.FenceCases;
import conformance.cases.FetchAndOpTypeCases;
import conformance.cases.FetchingAccumulateCases;
import conformance.cases.FlavourCases;
import conformance.cases.GetAccumulateTypeCases;
import conformance.cases.KeyvalCases;
import conformance.cases.LayoutCases;
import conformance.cases.LifecycleCases;
import conformance.cases.PairCases;
import conformance.cases.PassiveCases;
import conformance.cases.PatternCases;
import conformance.cases.PscwCases;
import conformance.cases.PscwErrorCases;
import conformance.cases.PutGetCases;
import conformance.cases.QueryCases;
import conformance.cases.RequestCases;

/** Every case of the suite, group by group, in the order they run. */
public final class Catalog
{
    private Catalog()
    {
    }

    public static List<Case> all()
    {
        final List<Case> cases = new ArrayList<>();
        cases.addAll(AllocationCases.cases());
        cases.addAll(LayoutCases.cases());
        cases.addAll(QueryCases.cases());
        cases.addAll(DispUnitCases.cases());
        cases.addAll(AttributeCases.cases());
        cases.addAll(KeyvalCases.cases());
        cases.addAll(FenceCases.cases());
        cases.addAll(PutGetCases.cases());
        cases.addAll(AccumulateCases.cases());
        cases.addAll(FetchingAccumulateCases.cases());
        cases.addAll(PairCases.cases());
        cases.addAll(AccumulateTypeCases.cases());
        cases.addAll(GetAccumulateTypeCases.cases());
        cases.addAll(FetchAndOpTypeCases.cases());
        cases.addAll(CompareAndSwapTypeCases.cases());
        cases.addAll(DatatypeCases.cases());
        cases.addAll(DatatypeAccumulateCases.cases());
        cases.addAll(PassiveCases.cases());
        cases.addAll(RequestCases.cases());
        cases.addAll(EpochErrorCases.cases());
        cases.addAll(ErrorClassCases.cases());
        cases.addAll(PscwCases.cases());
        cases.addAll(PscwErrorCases.cases());
        cases.addAll(LifecycleCases.cases());
        cases.addAll(FlavourCases.cases());
        cases.addAll(DynamicCases.cases());
        cases.addAll(DynamicEdgeCases.cases());
        cases.addAll(PatternCases.cases());
        final Set<String> ids = new HashSet<>();
        for (final Case c : cases)
        {
            if (!ids.add(c.id()))
            {
                throw new IllegalStateException("two cases are named " + c.id());
            }
        }
        return cases;
    }

    /** The cases named by {@code only} (ids, or prefixes ending in a dot); all of them if it is empty. */
    public static List<Case> select(final List<String> only)
    {
        final List<Case> all = all();
        if (only.isEmpty())
        {
            return all;
        }
        final List<Case> chosen = new ArrayList<>();
        for (final Case c : all)
        {
            for (final String wanted : only)
            {
                if (c.id().equals(wanted) || (wanted.endsWith(".") && c.id().startsWith(wanted)))
                {
                    chosen.add(c);
                    break;
                }
            }
        }
        if (chosen.isEmpty())
        {
            throw new IllegalArgumentException("--only=" + String.join(",", only) + " matches no case");
        }
        return chosen;
    }
}
