package mpi.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class InfoTest
{
    @Test
    void shouldKeepValuesInTheOrderKeysWereFirstSet()
    {
        final Info info = new Info();
        info.set("b", "1");
        info.set("a", "2");
        info.set("b", "3");

        assertEquals("3", info.get("b"));
        assertEquals(List.of("b", "a"), info.keys());
        assertNull(info.get("c"));
    }

    @Test
    void shouldCopyIndependently()
    {
        final Info info = new Info();
        info.set("k", "v");
        final Info copy = new Info(info);
        info.set("k", "changed");

        assertEquals("v", copy.get("k"));
    }

    @Test
    void shouldRejectBadKeysAndValuesWithTheirClass()
    {
        final Info info = new Info();

        assertEquals(ErrorClass.ERR_INFO_KEY, assertThrows(RmaException.class, () -> info.set(null, "v")).errorClass());
        assertEquals(ErrorClass.ERR_INFO_KEY, assertThrows(RmaException.class, () -> info.set("", "v")).errorClass());
        assertEquals(ErrorClass.ERR_INFO_KEY,
            assertThrows(RmaException.class, () -> info.set("k".repeat(Info.MAX_INFO_KEY + 1), "v")).errorClass());
        final RmaException nullValue = assertThrows(RmaException.class, () -> info.set("key", null));
        assertEquals(ErrorClass.ERR_INFO_VALUE, nullValue.errorClass());
        assertTrue(nullValue.getMessage().contains("\"key\""), nullValue.getMessage());
        assertEquals(ErrorClass.ERR_INFO_VALUE,
            assertThrows(RmaException.class, () -> info.set("k", "v".repeat(Info.MAX_INFO_VAL + 1))).errorClass());
        assertEquals(ErrorClass.ERR_INFO_NOKEY,
            assertThrows(RmaException.class, () -> info.delete("absent")).errorClass());
        assertEquals(ErrorClass.ERR_INFO, assertThrows(RmaException.class, () -> new Info(null)).errorClass());
    }
}
