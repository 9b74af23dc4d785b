package conformance;

/**
 * The behaviours the suite checks: one entry of {@code docs/conformance-checklist.md} each
 * ({@link Checklist} writes it). Every {@link Case} names the behaviour it checks; a behaviour is
 * checked by one case or several.
 *
 * <p>A reference is where the rule comes from: a section of MPI-4.1 ("MPI-4.1 §12.2.3"), a
 * test of MPICH's suite by name, or a decision of this project ({@code docs/design.md#<anchor>}).
 * The title is the checklist's heading, so its slug is the entry's anchor: change a title and
 * every link to it changes too ({@code CitationsTest} finds the ones left behind).
 */
public enum Behaviour
{
    // Allocation and argument errors
    ALLOC_COLLECTIVE(CaseGroup.ALLOCATION, "Allocation is collective",
        "MPI-4.1 §12.2.3: every process of the communicator calls allocateShared and gets its own segment"),
    ALLOC_SIZES(CaseGroup.ALLOCATION, "Sizes may differ and be zero",
        "MPI-4.1 §12.2.3: size may differ per process, and size 0 is valid (as MPI_ALLOC_MEM of 0 bytes)"),
    ALLOC_ARGUMENT_ERRORS(CaseGroup.ALLOCATION, "Bad creation arguments fail on every process",
        "MPI-4.1 §12.2.3, §12.6.2; docs/design.md#collective-calls-fail-together; docs/design.md#error-classes"),
    ALLOC_INFO(CaseGroup.ALLOCATION, "Creation hints are checked, unknown keys ignored",
        "MPI-4.1 §12.2.1, §12.2.7; docs/design.md#info-hints"),
    ALLOC_ONE_PROCESS(CaseGroup.ALLOCATION, "A window of one process",
        "MPI-4.1 §12.2.3; MPICH win_shared_query_null"),
    ALLOC_SPLIT(CaseGroup.ALLOCATION, "Shared.split groups the processes of a node",
        "MPI-4.1 §7.4.2 (MPI_COMM_TYPE_SHARED)"),
    ALLOC_AFTER_FAILURE(CaseGroup.ALLOCATION, "A failed allocation leaves nothing behind",
        "docs/design.md#collective-calls-fail-together"),
    ALLOC_LARGE(CaseGroup.ALLOCATION, "Large segments",
        "MPICH win_large_shm; docs/design.md#pages-reserved-with-fallocate"),

    // Contiguous vs noncontig layout
    LAYOUT_CONTIGUOUS(CaseGroup.LAYOUT, "Segments are contiguous in rank order by default",
        "MPI-4.1 §12.2.3: segment i starts right after segment i-1; empty segments take no room"),
    LAYOUT_NONCONTIG(CaseGroup.LAYOUT, "Noncontiguous segments on request",
        "MPI-4.1 §12.2.3 (alloc_shared_noncontig); docs/design.md#noncontiguous-only-when-every-process-asks"),
    LAYOUT_ALIGNMENT(CaseGroup.LAYOUT, "Segments are aligned",
        "MPI-4.1 §12.2.3 (alignment), §9.2"),
    LAYOUT_SAME_MEMORY(CaseGroup.LAYOUT, "Every process maps the same memory",
        "MPI-4.1 §12.2.3, §12.4 (unified model)"),

    // sharedQuery, PROC_NULL and zero sizes
    QUERY_ANY_RANK(CaseGroup.QUERY, "sharedQuery gives any rank's segment",
        "MPI-4.1 §12.2.3 (MPI_WIN_SHARED_QUERY)"),
    QUERY_PROC_NULL(CaseGroup.QUERY, "sharedQuery of PROC_NULL is the lowest non-empty segment",
        "MPI-4.1 §12.2.3"),
    QUERY_BAD_RANK(CaseGroup.QUERY, "sharedQuery of an invalid rank is an error",
        "MPI-4.1 §12.6.2 (MPI_ERR_RANK)"),
    QUERY_LOCAL(CaseGroup.QUERY, "sharedQuery is local and needs no epoch",
        "MPI-4.1 §12.2.3"),

    // Displacement units
    DISP_TARGET_UNIT(CaseGroup.DISP_UNIT, "Displacements are scaled by the target's unit",
        "MPI-4.1 §12.2.1, §12.3.1"),
    DISP_RANGE(CaseGroup.DISP_UNIT, "Accesses past the end of a segment are rejected",
        "MPI-4.1 §12.3.1 (advice to implementors), §12.6.2 (MPI_ERR_RMA_RANGE); docs/design.md#accesses-past-the-end-are-rejected"),

    // Attributes, info, name, group
    ATTR_VALUES(CaseGroup.ATTRIBUTES, "Window attributes and group",
        "MPI-4.1 §12.2.6, §12.4"),
    ATTR_NAME(CaseGroup.ATTRIBUTES, "Window names",
        "MPI-4.1 §7.8"),
    ATTR_INFO(CaseGroup.ATTRIBUTES, "getInfo and setInfo",
        "MPI-4.1 §12.2.7; docs/design.md#info-hints; docs/design.md#every-argument-is-checked"),
    ATTR_KEYVALS(CaseGroup.ATTRIBUTES, "Attributes of the program's own keys",
        "MPI-4.1 §7.7.4 (window keyvals, set, get and delete, delete callbacks at free); MPICH attrorderwin, " +
            "fkeyvalwin"),
    ATTR_ERRHANDLERS(CaseGroup.ATTRIBUTES, "Error handlers on windows",
        "MPI-4.1 §9.3.3, §9.3.4, §12.6.1; MPICH wincall; docs/design.md#error-handlers-on-windows"),

    // Fence and its assertions
    FENCE_SYNCHRONISES(CaseGroup.FENCE, "A fence completes the accesses of its epoch",
        "MPI-4.1 §12.5.1"),
    FENCE_ASSERTIONS(CaseGroup.FENCE, "Fence assertions are checked",
        "MPI-4.1 §12.5.5; docs/design.md#collective-calls-fail-together"),
    EPOCH_MODE_SWITCH(CaseGroup.FENCE, "Fence and lock epochs do not overlap",
        "MPI-4.1 §12.5, §12.7; docs/design.md#lock-after-fence-only-if-no-rma-since"),
    EPOCH_REQUIRED(CaseGroup.FENCE, "RMA calls need an access epoch",
        "MPI-4.1 §12.5 (MPI_ERR_RMA_SYNC)"),

    // Put and get
    RMA_PUT_GET(CaseGroup.PUT_GET, "Put and get move data between segments",
        "MPI-4.1 §12.3.1, §12.3.2"),
    RMA_PROC_NULL(CaseGroup.PUT_GET, "PROC_NULL targets do nothing",
        "MPI-4.1 §12.3; MPICH rmanull; docs/design.md#proc-null-targets"),
    RMA_ARGUMENT_ERRORS(CaseGroup.PUT_GET, "Bad communication arguments are errors",
        "MPI-4.1 §12.3.1, §12.6.2; docs/design.md#every-argument-is-checked"),
    RMA_CONFLICTS(CaseGroup.PUT_GET, "Conflicting accesses are not errors",
        "MPI-4.1 §12.7"),
    RMA_FLUSH_LOCAL(CaseGroup.PUT_GET, "flushLocal completes at the origin",
        "MPI-4.1 §12.5.4"),
    RMA_EMPTY_TRANSFERS(CaseGroup.PUT_GET, "Transfers that move nothing succeed",
        "MPI-4.1 §12.3.1 (a put moves what a send and a receive would: empty type signatures match, §3.3.1), " +
            "§12.3.5; MPICH badrma; docs/design.md#transfers-that-move-nothing"),

    // Derived datatypes
    DTYPE_CONSTRUCTORS(CaseGroup.DATATYPES, "Derived datatypes on origin and target",
        "MPI-4.1 §12.3.1, §12.3.2, §5.1.2-§5.1.6; docs/design.md#derived-datatypes"),
    DTYPE_SIGNATURE(CaseGroup.DATATYPES, "Origin and target carry the same type signature",
        "MPI-4.1 §12.3.1 (the type signatures must match); docs/design.md#derived-datatypes"),
    DTYPE_RANGE(CaseGroup.DATATYPES, "Every element of a derived target lies in the segment",
        "MPI-4.1 §12.3.1, §12.6.2 (MPI_ERR_RMA_RANGE); docs/design.md#accesses-past-the-end-are-rejected"),
    DTYPE_ACCUMULATE(CaseGroup.DATATYPES, "Accumulate with derived datatypes",
        "MPI-4.1 §12.3.4 (derived types built from one predefined type), §12.7.1"),
    DTYPE_BASIC_ONLY_CALLS(CaseGroup.DATATYPES, "fetchAndOp and compareAndSwap take no derived datatypes",
        "MPI-4.1 §12.3.4.3, §12.3.4.4 (one element of a predefined datatype)"),

    // Accumulate family and atomicity
    ACC_ATOMIC(CaseGroup.ACCUMULATE, "Accumulates are atomic per element",
        "MPI-4.1 §12.7.1; docs/design.md#atomic-accumulates"),
    ACC_OPS(CaseGroup.ACCUMULATE, "Accumulate operations and their types",
        "MPI-4.1 §12.3.4.1, §6.9.2; docs/design.md#derived-datatypes"),
    ACC_ORDERING(CaseGroup.ACCUMULATE, "Accumulates from one origin are ordered",
        "MPI-4.1 §12.7.2 (accumulate_ordering)"),
    ACC_GET_ACCUMULATE(CaseGroup.ACCUMULATE, "getAccumulate returns the old value",
        "MPI-4.1 §12.3.4.2"),
    ACC_FETCH_AND_OP(CaseGroup.ACCUMULATE, "fetchAndOp returns the old value",
        "MPI-4.1 §12.3.4.3"),
    ACC_COMPARE_AND_SWAP(CaseGroup.ACCUMULATE, "compareAndSwap",
        "MPI-4.1 §12.3.4.4"),
    ACC_EVERY_TYPE(CaseGroup.ACCUMULATE, "Every operation on every basic type",
        "MPI-4.1 §12.3.4.1, §12.3.4.2, §6.9.2 (which operations apply to which types; MPI_ERR_OP for the others); " +
            "MPICH accfence1, get_accumulate"),
    ACC_PAIR_TYPES(CaseGroup.ACCUMULATE, "MAXLOC and MINLOC on pair types",
        "MPI-4.1 §6.9.4 (MAXLOC and MINLOC on value-index pairs: the greater or smaller value, on equal values the " +
            "lower index), §12.3.4 (REPLACE and NO_OP on any predefined datatype; one pair is one element); MPICH " +
            "acc_loc, acc_pairtype"),

    // Lock, lockAll, flush, sync with load/store
    LOCK_EXCLUSION(CaseGroup.PASSIVE, "Locks exclude as their type says",
        "MPI-4.1 §12.5.3; docs/design.md#locks-in-shared-memory"),
    LOCK_EPOCHS(CaseGroup.PASSIVE, "Lock epochs",
        "MPI-4.1 §12.5.3"),
    LOCK_COMPLETION(CaseGroup.PASSIVE, "Unlock and flush complete accesses at the target",
        "MPI-4.1 §12.5.3, §12.5.4"),
    LOCK_SYNC(CaseGroup.PASSIVE, "sync orders loads and stores",
        "MPI-4.1 §12.5.4, §12.7, §12.8; docs/design.md#sync-outside-passive-epochs"),
    LOCK_NOCHECK(CaseGroup.PASSIVE, "MODE_NOCHECK locks still complete their accesses",
        "MPI-4.1 §12.5.3, §12.5.5 (MODE_NOCHECK: no conflicting lock, none taken); MPICH lockopts, lockall_dt"),

    // Request-based RMA
    REQ_COMPLETION(CaseGroup.REQUESTS, "A request completes its operation at the origin",
        "MPI-4.1 §12.3.5; MPICH rput_local_comp, racc_local_comp, req_example; docs/design.md#request-based-rma"),
    REQ_FLUSH_COMPLETES(CaseGroup.REQUESTS, "Flush and unlock complete request-based operations",
        "MPI-4.1 §12.3.5, §12.5.3, §12.5.4; MPICH rget-unlock"),
    REQ_MULTIPLE(CaseGroup.REQUESTS, "Several requests complete at once",
        "MPI-4.1 §3.7.5, §12.3.5; MPICH rget-testall"),
    REQ_ATOMIC(CaseGroup.REQUESTS, "Request-based accumulates are atomic per element",
        "MPI-4.1 §12.3.5, §12.7.1; MPICH reqops"),
    REQ_PASSIVE_ONLY(CaseGroup.REQUESTS, "Request-based calls need a passive-target epoch",
        "MPI-4.1 §12.3.5 (MPI_ERR_RMA_SYNC)"),
    REQ_ARGUMENTS(CaseGroup.REQUESTS, "Request-based calls check their arguments",
        "MPI-4.1 §12.3.5, §12.6.2, §3.8.4; docs/design.md#every-argument-is-checked"),

    // Epoch errors
    EPOCH_LOCK_STATE(CaseGroup.EPOCH_ERRORS, "Lock calls in the wrong state are errors",
        "MPI-4.1 §12.5.3 (MPI_ERR_RMA_SYNC)"),
    EPOCH_FLUSH_STATE(CaseGroup.EPOCH_ERRORS, "Flush outside a passive-target epoch is an error",
        "MPI-4.1 §12.5.4 (MPI_ERR_RMA_SYNC)"),
    EPOCH_LOCK_ARGUMENTS(CaseGroup.EPOCH_ERRORS, "Lock arguments are checked",
        "MPI-4.1 §12.5.3, §12.5.5, §12.6.2; docs/design.md#error-classes"),
    EPOCH_RECOVERABLE(CaseGroup.EPOCH_ERRORS, "A window stays usable after an error",
        "MPI-4.1 §12.6"),

    // Error classes and info keys
    ERRCLASS_EACH(CaseGroup.ERROR_CLASSES, "Each error has MPI's class",
        "MPI-4.1 §9.4, §12.6.2; docs/design.md#error-classes"),
    INFO_VALUES(CaseGroup.ERROR_CLASSES, "Info values are checked against their key",
        "MPI-4.1 §12.2.1, §12.7, §9.4 (MPI_ERR_INFO_VALUE); MPICH win_info; docs/design.md#info-hints"),
    INFO_ALIGNMENT(CaseGroup.ERROR_CLASSES, "mpi_minimum_memory_alignment is honoured",
        "MPI-4.1 §12.2.2, §12.2.3; docs/design.md#info-hints"),
    INFO_NO_LOCKS(CaseGroup.ERROR_CLASSES, "no_locks forbids passive-target synchronisation",
        "MPI-4.1 §12.2.1 (no_locks); docs/design.md#info-hints"),
    // Post, start, complete, wait
    PSCW_SYNCHRONISES(CaseGroup.PSCW, "Post, start, complete and wait order the accesses of an epoch",
        "MPI-4.1 §12.5.2; docs/design.md#generalized-active-target-pscw"),
    PSCW_GROUPS(CaseGroup.PSCW, "Start and post name groups of the window's processes",
        "MPI-4.1 §12.5.2, §9.4 (MPI_ERR_GROUP)"),
    PSCW_ASSERTIONS(CaseGroup.PSCW, "Post and start assertions",
        "MPI-4.1 §12.5.5 (MODE_NOCHECK, MODE_NOSTORE, MODE_NOPUT)"),
    PSCW_TEST(CaseGroup.PSCW, "test is a wait that does not block",
        "MPI-4.1 §12.5.2 (MPI_WIN_TEST)"),
    PSCW_ERRORS(CaseGroup.PSCW, "Post, start, complete and wait in the wrong state are errors",
        "MPI-4.1 §12.5.2, §12.6.2 (MPI_ERR_RMA_SYNC)"),

    // Free and lifecycle
    FREE_INVALIDATES(CaseGroup.LIFECYCLE, "Free ends the window",
        "MPI-4.1 §12.2.5; docs/design.md#freed-windows-fail-cleanly"),
    FREE_EPOCH_OPEN(CaseGroup.LIFECYCLE, "Free with an epoch open fails on every process",
        "MPI-4.1 §12.2.5; docs/design.md#collective-calls-fail-together"),
    FREE_AFTER_COMPLETION(CaseGroup.LIFECYCLE, "Free once the accesses are complete",
        "MPI-4.1 §12.2.5"),
    FREE_NO_LEAK(CaseGroup.LIFECYCLE, "Allocation and free leak nothing",
        "docs/design.md#unnamed-shared-memory-objects"),

    // Window flavours and nodes
    FLAVOUR_CREATE_MEMORY(CaseGroup.FLAVOURS, "Win.create over every kind of memory",
        "MPI-4.1 §12.2.1; MPICH window_creation"),
    FLAVOUR_CREATE_ERRORS(CaseGroup.FLAVOURS, "Bad Win.create arguments fail on every process",
        "MPI-4.1 §12.2.1, §12.6.2; docs/design.md#collective-calls-fail-together"),
    FLAVOUR_ALLOCATE_MEMORY(CaseGroup.FLAVOURS, "Win.allocate gives zeroed, aligned memory",
        "MPI-4.1 §12.2.2"),
    FLAVOUR_ZERO_AND_PROC_NULL(CaseGroup.FLAVOURS, "Zero-size windows and PROC_NULL targets on every flavour",
        "MPI-4.1 §12.2.1, §12.2.2, §12.3; MPICH rmanull, rmazero, win_zero"),
    FLAVOUR_SHARED_QUERY(CaseGroup.FLAVOURS, "sharedQuery on every flavour",
        "MPI-4.1 §12.2.3 (size 0 for memory not shared with the caller)"),
    FLAVOUR_ATTRIBUTES(CaseGroup.FLAVOURS, "Every flavour reports its flavour and model",
        "MPI-4.1 §12.2.6, §12.4; MPICH win_flavors"),
    FLAVOUR_MESSAGE_TYPES(CaseGroup.FLAVOURS, "Windows reached by messages carry derived datatypes",
        "MPI-4.1 §12.3.1; docs/design.md#derived-datatypes"),
    FLAVOUR_PROGRESS(CaseGroup.FLAVOURS, "Passive-target accesses complete while the target computes",
        "MPI-4.1 §12.5.3, §12.7 (progress); MPICH lockcontention3, rma-contig"),
    FLAVOUR_ACROSS_NODES(CaseGroup.FLAVOURS, "allocateShared across nodes fails on every process",
        "MPI-4.1 §12.2.3, §7.4.2 (MPI_COMM_TYPE_SHARED)"),

    // Dynamic windows: attach and detach
    DYNAMIC_ATTACHED_ACCESS(CaseGroup.DYNAMIC, "Attached memory is reached at its address",
        "MPI-4.1 §12.2.4 (MPI_WIN_ATTACH; the target displacement is the address); MPICH win_dynamic_acc, aint, " +
            "linked_list"),
    DYNAMIC_UNATTACHED_ACCESS(CaseGroup.DYNAMIC, "An access to memory not attached is reported",
        "MPI-4.1 §12.2.4 (accesses to detached memory are erroneous), §12.6.2 (MPI_ERR_RMA_RANGE); " +
            "docs/design.md#dynamic-windows-attached-memory-and-its-addresses"),
    DYNAMIC_ATTACH_ERRORS(CaseGroup.DYNAMIC, "Attach and detach check their memory",
        "MPI-4.1 §12.2.4, §12.6.2 (MPI_ERR_RMA_ATTACH, MPI_ERR_RMA_FLAVOR); " +
            "docs/design.md#dynamic-windows-attached-memory-and-its-addresses"),
    DYNAMIC_ZERO_AND_PROC_NULL(CaseGroup.DYNAMIC, "Zero-size attach and PROC_NULL targets on a dynamic window",
        "MPI-4.1 §12.2.4, §12.3; MPICH rmanull, rmazero"),
    DYNAMIC_QUERY_ATTRIBUTES(CaseGroup.DYNAMIC, "sharedQuery and attributes of a dynamic window",
        "MPI-4.1 §12.2.3, §12.2.6 (size 0 and base MPI_BOTTOM for a dynamic window); MPICH win_flavors"),
    DYNAMIC_TOUCHING_REGIONS(CaseGroup.DYNAMIC, "An access may run across attached regions that touch",
        "MPI-4.1 §12.2.4 (the target displacement is an address of attached memory); MPICH " +
            "win_dynamic_rma_flush_get; docs/design.md#dynamic-windows-attached-memory-and-its-addresses"),

    // Whole-program patterns
    PATTERN_MIXED_SYNC(CaseGroup.PATTERNS, "Every synchronisation mode in turn on one window",
        "MPI-4.1 §12.5 (epochs of each kind in sequence), §12.7; MPICH mixedsync"),
    PATTERN_OVERLAPPING(CaseGroup.PATTERNS, "Two windows over the same memory",
        "MPI-4.1 §12.2.1 (a location may belong to several windows), §12.7 (accesses through them synchronised); " +
            "MPICH overlap_wins_put, overlap_wins_acc, overlap_wins_gacc, overlap_wins_fop, overlap_wins_cas"),
    PATTERN_LINKED_LIST(CaseGroup.PATTERNS, "A linked list built by every process",
        "MPI-4.1 §12.3.4.3, §12.3.4.4, §12.5.3; MPICH linked_list, linked_list_fop, linked_list_lockall"),
    PATTERN_COUNTERS(CaseGroup.PATTERNS, "Shared counters and a work queue",
        "MPI-4.1 §12.3.4, §12.5.3, §12.7.1; MPICH fetchandadd, adlb_mimic1");

    private final CaseGroup group;
    private final String title;
    private final String reference;

    Behaviour(final CaseGroup group, final String title, final String reference)
    {
        this.group = group;
        this.title = title;
        this.reference = reference;
    }

    /** The group under which the checklist lists it. */
    public CaseGroup group()
    {
        return group;
    }

    /** The checklist's heading for it. */
    public String title()
    {
        return title;
    }

    /** Where the rule comes from. */
    public String reference()
    {
        return reference;
    }

    /** Its anchor in {@code docs/conformance-checklist.md}: the slug of its heading. */
    public String anchor()
    {
        return Checklist.slug(title);
    }
}
