package mpi.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WindowHintsTest
{
    @Test
    void shouldReportEveryHintWithItsDefaultWhenNoInfoIsGiven()
    {
        final Info reported = WindowHints.from(null, "test").toInfo();

        assertEquals("false", reported.get("alloc_shared_noncontig"));
        assertEquals("false", reported.get("no_locks"));
        assertEquals("rar,raw,war,waw", reported.get("accumulate_ordering"));
        assertEquals("same_op_no_op", reported.get("accumulate_ops"));
        assertEquals("0", reported.get("mpi_accumulate_granularity"));
    }

    @Test
    void shouldReadBooleansAndIgnoreUnknownKeys()
    {
        final Info info = new Info();
        info.set("alloc_shared_noncontig", " TRUE ");
        info.set("no_locks", "false");
        info.set("some_other_library_hint", "whatever");

        final WindowHints hints = WindowHints.from(info, "test");

        assertTrue(hints.allocSharedNoncontig());
        assertFalse(hints.noLocks());
        assertFalse(hints.withNoncontig(false).allocSharedNoncontig());
    }

    @ParameterizedTest
    @CsvSource({"alloc_shared_noncontig, yes", "same_size, 1", "accumulate_ordering, 'rar,xyz'",
        "accumulate_ops, sum", "no_locks, ''"})
    void shouldRejectAValueTheKeyDoesNotAcceptNamingBoth(final String key, final String value)
    {
        final Info info = new Info();
        info.set(key, value);

        final RmaException e = assertThrows(RmaException.class, () -> WindowHints.from(info, "Win.allocateShared"));

        assertEquals(ErrorClass.ERR_INFO_VALUE, e.errorClass());
        assertTrue(e.getMessage().contains(key + "=\"" + value + "\""), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"none", "'raw,war'", "'rar,raw,war,waw'"})
    void shouldAcceptOrderings(final String ordering)
    {
        final Info info = new Info();
        info.set("accumulate_ordering", ordering);

        assertEquals(ordering, WindowHints.from(info, "test").accumulateOrdering());
    }
}
