package conformance;

/**
 * What a case checks, as a job reported it ({@link ResultLines#META}): the report needs no MPJ classes.
 *
 * @param checklist   the anchor of its entry in {@code docs/conformance-checklist.md} ("" if the job did not say).
 * @param flavours    the flavours it applies to, comma-separated calls ("" if the job did not say: all).
 * @param flavourNote why not to the others ("" when it applies to all).
 */
public record CaseInfo(String id, String group, int minProcesses, String expectation, String source, String checklist,
    String flavours, String flavourNote)
{
    public CaseInfo(final String id, final String group, final int minProcesses, final String expectation,
        final String source, final String checklist)
    {
        this(id, group, minProcesses, expectation, source, checklist, "", "");
    }
}
