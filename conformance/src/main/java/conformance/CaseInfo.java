package conformance;

/**
 * What a case checks, as a job reported it ({@link ResultLines#META}): the report needs no MPJ classes.
 *
 * @param checklist the anchor of its entry in {@code docs/conformance-checklist.md} ("" if the job did not say).
 */
public record CaseInfo(String id, String group, int minProcesses, String expectation, String source, String checklist)
{
}
