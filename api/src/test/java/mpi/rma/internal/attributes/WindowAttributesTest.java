package mpi.rma.internal.attributes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.Win;
import mpi.rma.WinCopyAttrFunction;
import mpi.rma.WinDeleteAttrFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Keys and attributes of windows without a window (the callbacks get null for it): the delete callback at each
 * deletion, replacement and free, the order at free, and every bad key refused with ERR_KEYVAL.
 */
class WindowAttributesTest
{
    private final List<String> deleted = new ArrayList<>();
    private final WindowAttributes attributes =
        new WindowAttributes((callback, keyval, value) -> callback.delete(null, keyval, value));

    private int recordingKey()
    {
        return Keyvals.create(WinCopyAttrFunction.NULL_COPY, (win, keyval, value) -> deleted.add(keyval + "=" + value));
    }

    @Test
    void shouldMakeDistinctKeysAboveThePredefinedOnes()
    {
        final int first = Keyvals.create(WinCopyAttrFunction.DUP, WinDeleteAttrFunction.NULL_DELETE);
        final int second = Keyvals.create(WinCopyAttrFunction.NULL_COPY, WinDeleteAttrFunction.NULL_DELETE);

        assertTrue(first >= Keyvals.FIRST && second > first, first + ", " + second);
        assertTrue(first > Win.WIN_MODEL && first != Win.KEYVAL_INVALID);
        assertEquals("v", WinCopyAttrFunction.DUP.copy(null, first, "v"));
        assertNull(WinCopyAttrFunction.NULL_COPY.copy(null, first, "v"));
    }

    @Test
    void shouldRunTheDeleteCallbackWhenDeletedOrReplacedOnly()
    {
        final int key = recordingKey();
        assertNull(attributes.get("t", key), "no value yet");

        attributes.set("t", key, "a");
        attributes.set("t", key, "b");
        assertEquals(List.of(key + "=a"), deleted, "replacing deletes the old value first");
        assertEquals("b", attributes.get("t", key));

        attributes.delete("t", key);
        attributes.delete("t", key);
        assertEquals(List.of(key + "=a", key + "=b"), deleted, "deleting what is not set does nothing, as in MPICH");
        assertNull(attributes.get("t", key));
    }

    @Test
    void shouldDeleteEverythingAtFreeNewestSettingFirst()
    {
        final int a = recordingKey();
        final int b = recordingKey();
        final int c = recordingKey();
        attributes.set("t", a, 1);
        attributes.set("t", b, 2);
        attributes.set("t", c, 3);
        attributes.set("t", a, 4);
        deleted.clear();

        assertNull(attributes.deleteAll("Win.free"));

        assertEquals(List.of(a + "=4", c + "=3", b + "=2"), deleted, "a, set again last, goes first");
        assertNull(attributes.get("t", a));
    }

    @Test
    void shouldStillDeleteTheAttributeOfAFreedKeyAtFree()
    {
        final int key = recordingKey();
        attributes.set("t", key, "kept");
        Keyvals.free(key);

        assertKeyvalError("was freed", () -> attributes.get("Win.getAttr", key));
        assertKeyvalError("was freed", () -> attributes.set("Win.setAttr", key, "x"));
        assertKeyvalError("was freed", () -> Keyvals.free(key));
        attributes.deleteAll("Win.free");
        assertEquals(List.of(key + "=kept"), deleted);
    }

    @Test
    void shouldRefusePredefinedUnknownAndInvalidKeys()
    {
        assertKeyvalError("predefined window attribute", () -> attributes.set("Win.setAttr", Win.WIN_SIZE, 1));
        assertKeyvalError("predefined window attribute", () -> attributes.delete("Win.deleteAttr", Win.WIN_BASE));
        assertKeyvalError("predefined window attribute", () -> Keyvals.free(Win.WIN_MODEL));
        assertKeyvalError("was not made by Win.createKeyval", () -> attributes.get("Win.getAttr", 987_654));
        assertKeyvalError("was not made by Win.createKeyval", () -> attributes.get("Win.getAttr", Win.KEYVAL_INVALID));
        assertKeyvalError("was not made by Win.createKeyval", () -> Keyvals.free(0));
    }

    @Test
    void shouldRefuseNullCallbacksAndNullValues()
    {
        assertError(ErrorClass.ERR_ARG, "copy callback is null",
            () -> Keyvals.create(null, WinDeleteAttrFunction.NULL_DELETE));
        assertError(ErrorClass.ERR_ARG, "delete callback is null",
            () -> Keyvals.create(WinCopyAttrFunction.NULL_COPY, null));
        final int key = recordingKey();
        assertError(ErrorClass.ERR_ARG, "value is null", () -> attributes.set("Win.setAttr", key, null));
    }

    @Test
    void shouldFailTheCallWhoseDeleteCallbackThrowsAndKeepTheValue()
    {
        final IllegalStateException cause = new IllegalStateException("still in use");
        final int key = Keyvals.create(WinCopyAttrFunction.NULL_COPY, (win, keyval, value) ->
        {
            throw cause;
        });
        final int quiet = recordingKey();
        attributes.set("t", key, "old");
        attributes.set("t", quiet, "q");

        final RmaException e = assertError(ErrorClass.ERR_OTHER, "the delete callback of keyval=" + key,
            () -> attributes.set("Win.setAttr", key, "new"));
        assertSame(cause, e.getCause());
        assertEquals("old", attributes.get("t", key));
        assertError(ErrorClass.ERR_OTHER, "Win.deleteAttr", () -> attributes.delete("Win.deleteAttr", key));
        assertEquals("old", attributes.get("t", key));

        final RmaException atFree = attributes.deleteAll("Win.free");
        assertTrue(atFree != null && atFree.getMessage().contains("Win.free: the delete callback"), "" + atFree);
        assertEquals(List.of(quiet + "=q"), deleted, "the other callbacks still run");
    }

    private static void assertKeyvalError(final String fragment, final Executable call)
    {
        assertError(ErrorClass.ERR_KEYVAL, fragment, call);
    }

    private static RmaException assertError(final ErrorClass expected, final String fragment, final Executable call)
    {
        final RmaException e = assertThrows(RmaException.class, call);
        assertEquals(expected, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        return e;
    }
}
