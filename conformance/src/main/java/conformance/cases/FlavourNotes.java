package conformance.cases;

/**
 * Why a case runs on some window flavours only: the reasons the reports give for its skips.
 * One place, so that the same reason reads the same wherever it applies.
 */
final class FlavourNotes
{
    /** Cases that load or store another process's segment, which only allocateShared shares. */
    static final String OTHERS_MEMORY = "loads or stores another process's segment through sharedQuery; memory " +
        "not shared with the caller has size 0 there (MPI-4.1 §12.2.3), see flavour.shared-query-*";
    /** Cases about where the segments of one shared mapping lie. */
    static final String LAYOUT = "the layout of the segments in one shared mapping (MPI-4.1 §12.2.3) exists for " +
        "allocateShared only";
    /** Cases that rely on the unified memory model. */
    static final String UNIFIED = "relies on the unified model (MPI-4.1 §12.4): loads and stores of another " +
        "process's memory ordered by sync; the other flavours report WIN_MODEL separate";
    /** Cases about the size argument, which create and createDynamic do not have. */
    static final String SIZE_ARGUMENT = "Win.create takes no size: the window is the base's bytes " +
        "(MPI-4.1 §12.2.1), and Win.createDynamic neither (§12.2.4); their argument errors are flavour.create-* " +
        "and dynamic.attach-errors";
    /** Cases about the disp unit argument, which createDynamic does not have. */
    static final String DISP_UNIT_ARGUMENT = "Win.createDynamic takes no displacement unit: it is 1 on every " +
        "process (MPI-4.1 §12.2.4)";
    /** Cases that check the size, unit or base a window was made with. */
    static final String DYNAMIC_ATTRIBUTES = "checks the size, disp unit or base the window was made with; a " +
        "dynamic window has size 0, disp unit 1 and no base (MPI-4.1 §12.2.4, §12.2.6), see dynamic.attributes";
    /** Cases that expect sharedQuery to give the caller's own memory. */
    static final String DYNAMIC_QUERY = "expects sharedQuery to give the caller's own memory; on a dynamic window " +
        "it is size 0 for every rank (MPI-4.1 §12.2.3), see dynamic.shared-query";
    /** Cases that expect the origin to reject an access past the end at once. */
    static final String DYNAMIC_RANGE = "expects the origin to reject an access past the end at once; on a dynamic " +
        "window only the target knows what is attached, and reports a put's MPI_ERR_RMA_RANGE with the next " +
        "flush, unlock or fence (dynamic.past-region-end, dynamic.zero-size-attach)";

    private FlavourNotes()
    {
    }
}
