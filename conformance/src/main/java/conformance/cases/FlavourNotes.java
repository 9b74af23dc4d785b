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
    /** Cases that move derived datatypes. */
    static final String DERIVED = "message windows carry basic and contiguous datatypes only, derived ones are " +
        "MPI_ERR_TYPE naming the way out (flavour.message-derived-type)";
    /** Cases about the size argument, which create does not have. */
    static final String SIZE_ARGUMENT = "Win.create takes no size: the window is the base's bytes " +
        "(MPI-4.1 §12.2.1); its argument errors are flavour.create-*";

    private FlavourNotes()
    {
    }
}
