package conformance.cases;

import java.lang.foreign.MemorySegment;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.Flavour;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.Info;
import mpi.rma.Win;

/** Attributes, name, info, group (docs/conformance-checklist.md#attributes-info-name-group). */
public final class AttributeCases
{
    private AttributeCases()
    {
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.ATTRIBUTES)
            .add("attr.base-size-disp-unit", Behaviour.ATTR_VALUES,
                "WIN_BASE is this rank's segment, WIN_SIZE its size (a Long), WIN_DISP_UNIT its unit (an Integer)",
                "MPI-4.1 §12.2.6; MPICH baseattrwin", AttributeCases::baseSizeDispUnit)
            .notDynamic(FlavourNotes.DYNAMIC_ATTRIBUTES)
            .add("attr.flavor-model", Behaviour.ATTR_VALUES,
                "WIN_CREATE_FLAVOR is the call that made the window (FLAVOR_SHARED, FLAVOR_CREATE, FLAVOR_ALLOCATE, " +
                    "FLAVOR_DYNAMIC); WIN_MODEL is UNIFIED for windows in shared memory (allocateShared, allocate on " +
                    "one node), SEPARATE for windows reached by messages",
                "MPI-4.1 §12.2.6, §12.4; MPICH win_flavors, win_info", AttributeCases::flavorModel)
            .add("attr.unknown-keyval", Behaviour.ATTR_VALUES,
                "getAttr of an unknown key: MPI_ERR_KEYVAL",
                "MPI-4.1 §12.2.6, §7.7, §9.4", AttributeCases::unknownKeyval)
            .add("attr.name", Behaviour.ATTR_NAME,
                "a new window's name is \"\"; setName then getName returns it",
                "MPI-4.1 §7.8; MPICH winname", AttributeCases::name)
            .add("attr.name-truncated", Behaviour.ATTR_NAME,
                "a 200-character name is cut to MAX_OBJECT_NAME - 1 = 127 characters",
                "MPI-4.1 §7.8", AttributeCases::nameTruncated)
            .add("attr.name-local", 2, Behaviour.ATTR_NAME,
                "setName is local: rank 0 names the window, the other ranks still see \"\"",
                "MPI-4.1 §7.8 (MPI_WIN_SET_NAME is local)", AttributeCases::nameLocal)
            .add("attr.group-ident", Behaviour.ATTR_VALUES,
                "getGroup is a group IDENT to the communicator's",
                "MPI-4.1 §12.2.6; MPICH getgroup", AttributeCases::groupIdent)
            .add("attr.info-defaults", Behaviour.ATTR_INFO,
                "getInfo reports every hint with its default: accumulate_ordering=rar,raw,war,waw, " +
                    "accumulate_ops=same_op_no_op, mpi_accumulate_granularity=0, alloc_shared_noncontig=false",
                "MPI-4.1 §12.2.1, §12.2.7; MPICH impls/mpich/rma/win_info", AttributeCases::infoDefaults)
            .add("attr.info-hints-echoed", Behaviour.ATTR_INFO,
                "hints given at creation (same_size, same_disp_unit, accumulate_ops=same_op) come back from getInfo",
                "MPI-4.1 §12.2.7", AttributeCases::infoHintsEchoed)
            .add("attr.info-is-new", Behaviour.ATTR_INFO,
                "getInfo returns a new info each time: changing one does not change the window's hints",
                "MPI-4.1 §12.2.7 (the user frees the returned info)", AttributeCases::infoIsNew)
            .add("attr.set-info-may-be-ignored", Behaviour.ATTR_INFO,
                "setInfo with a valid value succeeds; the window may keep its hints (getInfo unchanged here)",
                "MPI-4.1 §12.2.7 (hints may be ignored); docs/design.md#info-hints",
                AttributeCases::setInfoMayBeIgnored)
            .add("attr.set-info-bad-value", Behaviour.ATTR_INFO,
                "setInfo with no_locks=\"perhaps\": MPI_ERR_INFO_VALUE",
                "MPI-4.1 §12.2.7, §9.4", AttributeCases::setInfoBadValue)
            .add("attr.set-info-null", Behaviour.ATTR_INFO,
                "setInfo(null): MPI_ERR_INFO, naming the argument",
                "MPI-4.1 §12.2.7, §9.4; docs/design.md#every-argument-is-checked", AttributeCases::setInfoNull)
            .list();
    }

    private static void baseSizeDispUnit(final CaseContext c) throws Exception
    {
        final Win win = c.window(24 + c.rank(), 2);
        c.checkEquals(win.base().address(), ((MemorySegment)win.getAttr(Win.WIN_BASE)).address(), "WIN_BASE");
        c.checkEquals(Long.valueOf(24 + c.rank()), win.getAttr(Win.WIN_SIZE), "WIN_SIZE");
        c.checkEquals(Integer.valueOf(2), win.getAttr(Win.WIN_DISP_UNIT), "WIN_DISP_UNIT");
    }

    private static void flavorModel(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        final int flavor = switch (c.flavour())
        {
            case SHARED -> Win.FLAVOR_SHARED;
            case CREATE -> Win.FLAVOR_CREATE;
            case ALLOCATE -> Win.FLAVOR_ALLOCATE;
            case DYNAMIC -> Win.FLAVOR_DYNAMIC;
        };
        // allocate on one node is all shared memory; across nodes its other nodes' targets take messages.
        final boolean unified = c.isShared() || c.flavour() == Flavour.ALLOCATE && c.nodes() == 1;
        final int model = unified ? Win.UNIFIED : Win.SEPARATE;
        c.checkEquals(Integer.valueOf(flavor), win.getAttr(Win.WIN_CREATE_FLAVOR), "flavor");
        c.checkEquals(Integer.valueOf(model), win.getAttr(Win.WIN_MODEL), "model");
        c.checkEquals(flavor, win.createFlavor(), "createFlavor()");
        c.checkEquals(model, win.model(), "model()");
    }

    private static void unknownKeyval(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        c.expectError(ErrorClass.ERR_KEYVAL, "getAttr(99)", () -> win.getAttr(99));
    }

    private static void name(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        c.checkEquals("", win.getName(), "default name");
        win.setName("conformance window");
        c.checkEquals("conformance window", win.getName(), "name");
    }

    private static void nameTruncated(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        win.setName("n".repeat(200));
        c.checkEquals(Win.MAX_OBJECT_NAME - 1, win.getName().length(), "name length");
    }

    private static void nameLocal(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        if (c.isRoot())
        {
            win.setName("zero");
        }
        c.barrier();
        c.checkEquals(c.isRoot() ? "zero" : "", win.getName(), "name");
    }

    private static void groupIdent(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        c.checkEquals(MPI.IDENT, mpi.Group.Compare(win.getGroup(), c.comm().Group()), "CaseGroup.Compare");
    }

    private static void infoDefaults(final CaseContext c) throws Exception
    {
        final Info info = c.window(8, 1).getInfo();
        c.checkEquals("rar,raw,war,waw", info.get("accumulate_ordering"), "accumulate_ordering");
        c.checkEquals("same_op_no_op", info.get("accumulate_ops"), "accumulate_ops");
        c.checkEquals("0", info.get("mpi_accumulate_granularity"), "mpi_accumulate_granularity");
        c.checkEquals("false", info.get("alloc_shared_noncontig"), "alloc_shared_noncontig");
    }

    private static void infoHintsEchoed(final CaseContext c) throws Exception
    {
        final Info given = new Info();
        given.set("same_size", "true");
        given.set("same_disp_unit", "true");
        given.set("accumulate_ops", "same_op");
        final Info info = c.window(8, 1, given).getInfo();
        c.checkEquals("true", info.get("same_size"), "same_size");
        c.checkEquals("true", info.get("same_disp_unit"), "same_disp_unit");
        c.checkEquals("same_op", info.get("accumulate_ops"), "accumulate_ops");
    }

    private static void infoIsNew(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        final Info first = win.getInfo();
        first.set("accumulate_ops", "same_op");
        c.checkEquals("same_op_no_op", win.getInfo().get("accumulate_ops"), "accumulate_ops afterwards");
    }

    private static void setInfoMayBeIgnored(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        win.setInfo(CaseContext.info("accumulate_ordering", "none"));
        c.checkEquals("rar,raw,war,waw", win.getInfo().get("accumulate_ordering"), "accumulate_ordering");
    }

    private static void setInfoBadValue(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        c.expectError(ErrorClass.ERR_INFO_VALUE, "setInfo(no_locks=perhaps)",
            () -> win.setInfo(CaseContext.info("no_locks", "perhaps")));
    }

    private static void setInfoNull(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        c.expectError(ErrorClass.ERR_INFO, "setInfo(null)", () -> win.setInfo(null));
    }
}
