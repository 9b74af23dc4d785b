package conformance.cases;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** What the per-type accumulate cases say of a type: its name in ids, and the operations that apply to it. */
final class OperationTexts
{
    /** What accumulate takes: every operation but NO_OP. */
    static final Reduction[] ACCUMULATE_OPS = Arrays.copyOf(Reduction.values(), Reduction.values().length - 1);

    private OperationTexts()
    {
    }

    static String lower(final Kind kind)
    {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    static String opsText(final Kind kind, final boolean accumulate)
    {
        final List<String> names = new ArrayList<>();
        for (final Reduction op : accumulate ? ACCUMULATE_OPS : Reduction.values())
        {
            if (op.appliesTo(kind))
            {
                names.add(op.name());
            }
        }
        return String.join(", ", names);
    }

    static String errorText(final Kind kind, final boolean accumulate)
    {
        final List<String> names = new ArrayList<>();
        for (final Reduction op : Reduction.values())
        {
            if (!op.appliesTo(kind))
            {
                names.add(op.name());
            }
        }
        if (accumulate)
        {
            names.add("NO_OP");
        }
        return names.isEmpty() ? "every operation applies" : String.join(", ", names) + ": MPI_ERR_OP";
    }
}
