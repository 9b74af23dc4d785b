package faults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Markdown table of a fault run: one row per device, phase and launcher state, in the order run. */
final class FaultTable
{
    private FaultTable()
    {
    }

    static String format(final List<TrialResult> results)
    {
        final Map<String, List<TrialResult>> rows = new LinkedHashMap<>();
        for (final TrialResult result : results)
        {
            rows.computeIfAbsent(result.device().deviceName() + " | " + result.phase().cliName() + " | " +
                (result.launcherStopped() ? "stopped" : "running"), key -> new ArrayList<>()).add(result);
        }
        final StringBuilder table = new StringBuilder()
            .append("| device | phase | launcher | trials | hangs | time to fail, ms: median (max) | ")
            .append("survivors named the rank | launcher named it | orphans | files |\n")
            .append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (final Map.Entry<String, List<TrialResult>> row : rows.entrySet())
        {
            final List<TrialResult> trials = row.getValue();
            table.append("| ").append(row.getKey())
                .append(" | ").append(trials.size())
                .append(" | ").append(trials.stream().filter(TrialResult::hung).count())
                .append(" | ").append(timeToFail(trials))
                .append(" | ").append(trials.stream().filter(TrialResult::namedBySurvivors).count())
                .append(" | ").append(trials.stream().filter(TrialResult::namedByLauncher).count())
                .append(" | ").append(trials.stream().mapToInt(TrialResult::orphans).sum())
                .append(" | ").append(trials.stream().mapToInt(TrialResult::files).sum())
                .append(" |\n");
        }
        return table.toString();
    }

    private static String timeToFail(final List<TrialResult> trials)
    {
        final long[] ms = trials.stream().filter(trial -> !trial.hung()).mapToLong(TrialResult::timeToFailMs)
            .sorted().toArray();
        if (ms.length == 0)
        {
            return "-";
        }
        final long median = ms.length % 2 == 1 ? ms[ms.length / 2] : (ms[ms.length / 2 - 1] + ms[ms.length / 2]) / 2;
        return median + " (" + ms[ms.length - 1] + ")";
    }
}
