package conformance;

/** How one case ended in one configuration, over all ranks. */
public record CaseResult(Status status, long millis, String message)
{
}
