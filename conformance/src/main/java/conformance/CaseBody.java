package conformance;

/** What a case does on every rank: checks through the context, and may throw (an error of the case). */
@FunctionalInterface
public interface CaseBody
{
    void run(CaseContext context) throws Exception;
}
