package conformance.cases;

import java.util.ArrayList;
import java.util.List;

import conformance.Behaviour;
import conformance.Case;
import conformance.CaseContext;
import conformance.CaseGroup;
import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;
import mpi.rma.WinCopyAttrFunction;
import mpi.rma.WinErrhandler;

/**
 * Attributes of the program's own keys and error handlers on windows
 * (docs/conformance-checklist.md#attributes-of-the-programs-own-keys,
 * docs/conformance-checklist.md#error-handlers-on-windows).
 */
public final class KeyvalCases
{
    private KeyvalCases()
    {
    }

    /** A key whose delete callback records "window name: key=value" in {@code deleted}. */
    private static int recordingKey(final List<String> deleted)
    {
        return Win.createKeyval(WinCopyAttrFunction.NULL_COPY,
            (win, keyval, value) -> deleted.add(win.getName() + ": " + keyval + "=" + value));
    }

    /** Whether every attribute of {@code keys} is set to its value in {@code values}, reporting the first that is not. */
    private static void checkAttrs(final CaseContext c, final Win win, final int[] keys, final Object[] values,
        final String when)
    {
        for (int i = 0; i < keys.length; i++)
        {
            c.checkEquals(values[i], win.getAttr(keys[i]), when + ": key #" + i);
        }
    }

    public static List<Case> cases()
    {
        return new CaseList(CaseGroup.ATTRIBUTES)
            .add("attr.keyval-set-get-delete", Behaviour.ATTR_KEYVALS,
                "three keys of Win.createKeyval set in the orders 2 1 0, 1 2 0 and 0 1 2 and deleted in the orders " +
                    "0 1 2, 2 1 0 and 1 0 2: getAttr returns each value while it is set and null after, and the " +
                    "predefined WIN_DISP_UNIT still reads 1",
                "MPI-4.1 §7.7.4 (MPI_Win_set_attr, MPI_Win_get_attr: flag false when unset, MPI_Win_delete_attr); " +
                    "MPICH attrorderwin", KeyvalCases::keyvalSetGetDelete)
            .add("attr.delete-callbacks", Behaviour.ATTR_KEYVALS,
                "on a window named w: deleteAttr, and setAttr of a key already set, run its delete callback with the " +
                    "old value; free runs the callback of every attribute still set, the most recently set first " +
                    "(a key freed before the window too), while the window still answers getName; a key's " +
                    "callbacks run on no other window",
                "MPI-4.1 §7.7.4 (delete callbacks at delete, replace and MPI_Win_free; a freed key lives while " +
                    "attributes use it); MPICH fkeyvalwin, attrorderwin", KeyvalCases::deleteCallbacks)
            .add("attr.keyval-errors", Behaviour.ATTR_KEYVALS,
                "setAttr of a predefined key (WIN_SIZE), of an unknown key and of a freed key, getAttr and " +
                    "deleteAttr of a freed key, freeKeyval twice or of WIN_BASE: MPI_ERR_KEYVAL; a null value: " +
                    "MPI_ERR_ARG; a call on a freed window: MPI_ERR_WIN",
                "MPI-4.1 §7.7.4 (predefined attributes cannot be set; a freed key is MPI_KEYVAL_INVALID), §9.4 " +
                    "(MPI_ERR_KEYVAL); docs/design.md#error-classes", KeyvalCases::keyvalErrors)
            .add("errhandler.user-handler", Behaviour.ATTR_ERRHANDLERS,
                "a new window's handler is ERRORS_RETURN; with a handler of the program's own attached, " +
                    "callErrhandler(ERR_OTHER) calls it with the window and ERR_OTHER and returns, and a put to rank " +
                    "size calls it with ERR_RANK before the put throws MPI_ERR_RANK; after setErrhandler(" +
                    "ERRORS_RETURN) errors only throw",
                "MPI-4.1 §9.3.3 (MPI_Win_set_errhandler, get_errhandler), §9.3.4 (MPI_Win_call_errhandler), §12.6.1 " +
                    "(errors of a call on a window go to its handler); MPICH wincall; docs/design.md#error-handlers-on-windows",
                KeyvalCases::userHandler)
            .add("errhandler.collective-error", 2, Behaviour.ATTR_ERRHANDLERS,
                "every rank attaches a handler; the last rank passes a fence a bad assertion: the fence calls the " +
                    "handler with ERR_ASSERT on every rank, then throws MPI_ERR_ASSERT there",
                "MPI-4.1 §12.6.1 (the window's handler), §12.5.1; docs/design.md#collective-calls-fail-together",
                KeyvalCases::collectiveError)
            .list();
    }

    private static void keyvalSetGetDelete(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 1);
        final int[] keys = {Win.createKeyval(), Win.createKeyval(), Win.createKeyval()};
        final Object[] values = {Integer.valueOf(c.rank()), "value 1", Long.valueOf(2048)};
        final Object[] none = new Object[3];
        final int[][] setOrders = {{2, 1, 0}, {1, 2, 0}, {0, 1, 2}};
        final int[][] deleteOrders = {{0, 1, 2}, {2, 1, 0}, {1, 0, 2}};
        for (int round = 0; round < setOrders.length; round++)
        {
            for (final int k : setOrders[round])
            {
                win.setAttr(keys[k], values[k]);
            }
            checkAttrs(c, win, keys, values, "round " + round + " after setting");
            for (final int k : deleteOrders[round])
            {
                win.deleteAttr(keys[k]);
            }
            checkAttrs(c, win, keys, none, "round " + round + " after deleting");
        }
        c.checkEquals(Integer.valueOf(1), win.getAttr(Win.WIN_DISP_UNIT), "WIN_DISP_UNIT");
        for (final int key : keys)
        {
            Win.freeKeyval(key);
        }
    }

    private static void deleteCallbacks(final CaseContext c) throws Exception
    {
        final List<String> deleted = new ArrayList<>();
        final Win win = c.unkeptWindow(8, 1, null, c.comm());
        final Win other = c.window(8, 1);
        win.setName("w");
        other.setName("other");
        final int a = recordingKey(deleted);
        final int b = recordingKey(deleted);
        final int gone = recordingKey(deleted);
        win.setAttr(a, "a1");
        win.setAttr(gone, "g");
        win.setAttr(b, "b1");
        other.setAttr(a, "elsewhere");
        win.setAttr(a, "a2");
        win.deleteAttr(b);
        win.setAttr(b, "b2");
        Win.freeKeyval(gone);
        c.checkEquals(List.of("w: " + a + "=a1", "w: " + b + "=b1"), new ArrayList<>(deleted),
            "callbacks before free");
        deleted.clear();
        win.free();
        c.checkEquals(List.of("w: " + b + "=b2", "w: " + a + "=a2", "w: " + gone + "=g"), deleted,
            "callbacks at free, newest setting first");
        c.checkEquals("elsewhere", other.getAttr(a), "the other window's attribute");
        other.deleteAttr(a);
        Win.freeKeyval(a);
        Win.freeKeyval(b);
    }

    private static void keyvalErrors(final CaseContext c) throws Exception
    {
        final Win win = c.unkeptWindow(8, 1, null, c.comm());
        final int key = Win.createKeyval();
        c.expectError(ErrorClass.ERR_KEYVAL, "setAttr(WIN_SIZE)", () -> win.setAttr(Win.WIN_SIZE, 1L));
        c.expectError(ErrorClass.ERR_KEYVAL, "setAttr(KEYVAL_INVALID)",
            () -> win.setAttr(Win.KEYVAL_INVALID, 1));
        c.expectError(ErrorClass.ERR_KEYVAL, "freeKeyval(WIN_BASE)", () -> Win.freeKeyval(Win.WIN_BASE));
        c.expectError(ErrorClass.ERR_ARG, "setAttr(key, null)", () -> win.setAttr(key, null));
        Win.freeKeyval(key);
        c.expectError(ErrorClass.ERR_KEYVAL, "setAttr(freed key)", () -> win.setAttr(key, 1));
        c.expectError(ErrorClass.ERR_KEYVAL, "getAttr(freed key)", () -> win.getAttr(key));
        c.expectError(ErrorClass.ERR_KEYVAL, "deleteAttr(freed key)", () -> win.deleteAttr(key));
        c.expectError(ErrorClass.ERR_KEYVAL, "freeKeyval(freed key)", () -> Win.freeKeyval(key));
        win.free();
        final int later = Win.createKeyval();
        c.expectError(ErrorClass.ERR_WIN, "setAttr on a freed window", () -> win.setAttr(later, 1));
        Win.freeKeyval(later);
    }

    private static void userHandler(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final List<String> calls = new ArrayList<>();
        c.check(win.getErrhandler() == WinErrhandler.ERRORS_RETURN, "the default handler is " +
            win.getErrhandler() + ", not WinErrhandler.ERRORS_RETURN");
        final WinErrhandler mine = (w, errorClass, message) ->
            calls.add((w == win ? "win " : "another window ") + errorClass);
        win.setErrhandler(mine);
        c.check(win.getErrhandler() == mine, "getErrhandler is not the handler just set");
        win.callErrhandler(ErrorClass.ERR_OTHER);
        c.checkEquals(List.of("win ERR_OTHER"), new ArrayList<>(calls), "after callErrhandler");
        win.fence(0);
        final RmaException thrown = c.expectError(ErrorClass.ERR_RANK, "put to rank size",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, c.size(), 0, 1, MPI.LONG));
        c.checkEquals(List.of("win ERR_OTHER", "win ERR_RANK"), new ArrayList<>(calls), "after the put");
        c.check(thrown != null, "the put still throws after the handler returns");
        win.setErrhandler(WinErrhandler.ERRORS_RETURN);
        win.callErrhandler(ErrorClass.ERR_OTHER);
        c.expectError(ErrorClass.ERR_RANK, "put to rank -5",
            () -> win.put(new long[] {1}, 0, 1, MPI.LONG, -5, 0, 1, MPI.LONG));
        c.checkEquals(2, calls.size(), "handler calls after ERRORS_RETURN was set again");
        c.expectError(ErrorClass.ERR_ARG, "setErrhandler(null WinErrhandler)",
            () -> win.setErrhandler(null));
        c.expectError(ErrorClass.ERR_ARG, "callErrhandler(null)", () -> win.callErrhandler(null));
        win.fence(Win.MODE_NOSUCCEED);
    }

    private static void collectiveError(final CaseContext c) throws Exception
    {
        final Win win = c.window(8, 8);
        final List<ErrorClass> seen = new ArrayList<>();
        win.setErrhandler((w, errorClass, message) -> seen.add(errorClass));
        c.expectError(ErrorClass.ERR_ASSERT, "fence with a bad assertion on rank " + c.last(),
            () -> win.fence(c.rank() == c.last() ? Win.MODE_NOCHECK : 0));
        c.checkEquals(List.of(ErrorClass.ERR_ASSERT), seen, "classes the handler saw");
    }
}
