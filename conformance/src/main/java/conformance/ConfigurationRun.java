package conformance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one configuration's job: each case's result, read from the job's output. A
 * case the job never reported (it crashed or was killed) is {@link Status#NORUN} with the end
 * of the output as its message; a configuration that could not run at all has a reason instead.
 */
public record ConfigurationRun(Configuration configuration, Map<String, CaseResult> results, List<CaseInfo> cases,
    String unavailable, long millis)
{
    private static final int TAIL_CHARS = 300;

    /** Reads a job's output; {@code timedOut}: whether the job was killed at its time limit. */
    public static ConfigurationRun parse(final Configuration configuration, final String jobOutput,
        final boolean timedOut, final long millis)
    {
        final Map<String, CaseResult> results = new LinkedHashMap<>();
        final Map<String, CaseInfo> cases = new LinkedHashMap<>();
        for (final String line : jobOutput.lines().toList())
        {
            final List<String> meta = ResultLines.fields(line, ResultLines.META);
            if (meta != null && meta.size() >= 5)
            {
                cases.put(meta.get(0), new CaseInfo(meta.get(0), meta.get(1), Integer.parseInt(meta.get(2)),
                    meta.get(3), meta.get(4), meta.size() > 5 ? meta.get(5) : "", meta.size() > 6 ? meta.get(6) : "",
                    meta.size() > 7 ? meta.get(7) : ""));
                continue;
            }
            final List<String> result = ResultLines.fields(line, ResultLines.CASE);
            if (result != null && result.size() >= 4)
            {
                results.put(result.get(0), new CaseResult(Status.valueOf(result.get(1)), Long.parseLong(result.get(2)),
                    result.get(3)));
            }
        }
        final String output = jobOutput.strip();
        final String tail = (timedOut ? "job killed at its time limit; " : "job ended early; ") + "output ends: " +
            output.substring(Math.max(0, output.length() - TAIL_CHARS));
        for (final String id : cases.keySet())
        {
            results.putIfAbsent(id, new CaseResult(Status.NORUN, 0, tail));
        }
        if (cases.isEmpty())
        {
            return new ConfigurationRun(configuration, results, List.of(), "no case ran: " + tail, millis);
        }
        return new ConfigurationRun(configuration, results, List.copyOf(cases.values()), null, millis);
    }

    public static ConfigurationRun unavailable(final Configuration configuration, final String reason)
    {
        return new ConfigurationRun(configuration, Map.of(), List.of(), reason, 0);
    }

    /** How many cases ended with {@code status}. */
    public long count(final Status status)
    {
        return results.values().stream().filter(r -> r.status() == status).count();
    }

    /** Whether the configuration ran and every case passed or was skipped. */
    public boolean isClean()
    {
        return unavailable == null && results.values().stream().allMatch(r -> r.status().isGood());
    }
}
