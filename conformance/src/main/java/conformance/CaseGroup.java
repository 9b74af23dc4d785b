package conformance;

/** The groups of cases, in the order the suite runs and reports them. */
public enum CaseGroup
{
    ALLOCATION("Allocation and argument errors"),
    LAYOUT("Contiguous vs noncontig layout"),
    QUERY("sharedQuery, PROC_NULL and zero sizes"),
    DISP_UNIT("Displacement units"),
    ATTRIBUTES("Attributes, info, name, group"),
    FENCE("Fence and its assertions"),
    PUT_GET("Put and get"),
    ACCUMULATE("Accumulate family and atomicity"),
    DATATYPES("Derived datatypes"),
    PASSIVE("Lock, lockAll, flush, sync with load/store"),
    REQUESTS("Request-based RMA"),
    EPOCH_ERRORS("Epoch errors"),
    ERROR_CLASSES("Error classes and info keys"),
    PSCW("Post, start, complete, wait"),
    LIFECYCLE("Free and lifecycle"),
    FLAVOURS("Window flavours and nodes"),
    DYNAMIC("Dynamic windows: attach and detach"),
    PATTERNS("Whole-program patterns");

    private final String title;

    CaseGroup(final String title)
    {
        this.title = title;
    }

    public String title()
    {
        return title;
    }
}
