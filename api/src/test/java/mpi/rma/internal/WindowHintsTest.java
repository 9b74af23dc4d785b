package mpi.rma.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.rma.ErrorClass;
import mpi.rma.Info;
import mpi.rma.RmaException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

public class WindowHintsTest
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
        assertNull(reported.get("mpi_minimum_memory_alignment"), "only windows of library memory report it");
    }

    @Test
    void shouldReadGranularityAndAlignmentAndReportTheAlignmentInEffect()
    {
        final Info info = new Info();
        info.set("mpi_accumulate_granularity", " 16 ");
        info.set("mpi_minimum_memory_alignment", "64");

        final WindowHints hints = WindowHints.from(info, "test");

        assertEquals(16, hints.accumulateGranularity());
        assertEquals(64, hints.minimumAlignment());
        assertEquals("16", hints.toInfo().get("mpi_accumulate_granularity"));
        assertEquals("4096", hints.withMinimumAlignment(4096).toInfo().get("mpi_minimum_memory_alignment"));
        assertNull(hints.withMinimumAlignment(0).toInfo().get("mpi_minimum_memory_alignment"));
    }

    @ParameterizedTest
    @CsvSource({"0", "3", "96", "8192", "-64", "x", "''"})
    void shouldRejectAnAlignmentThatIsNoPowerOfTwoUpToAPageListingTheValidOnes(final String value)
    {
        final Info info = new Info();
        info.set("mpi_minimum_memory_alignment", value);

        final RmaException e = assertThrows(RmaException.class, () -> WindowHints.from(info, "Win.allocate"));

        assertEquals(ErrorClass.ERR_INFO_VALUE, e.errorClass());
        assertTrue(e.getMessage().contains("give a power of two from 1 to 4096"), e.getMessage());
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
        "accumulate_ops, sum", "no_locks, ''", "mpi_accumulate_granularity, -1", "mpi_accumulate_granularity, big",
        "same_disp_unit, maybe"})
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
