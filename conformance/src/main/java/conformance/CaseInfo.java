package conformance;

/** What a case checks, as a job reported it ({@link ResultLines#META}): the report needs no MPJ classes. */
public record CaseInfo(String id, String group, int minProcesses, String expectation, String source)
{
}
