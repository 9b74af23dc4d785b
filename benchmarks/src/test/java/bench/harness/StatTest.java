package bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The one median of the benchmarks, over arrays and lists alike. */
class StatTest
{
    @Test
    void shouldTakeTheMiddleValueOrTheMeanOfTheMiddleTwo()
    {
        assertEquals(3.0, Stat.median(new double[] {5, 1, 3}));
        assertEquals(2.5, Stat.median(new double[] {4, 1, 3, 2}));
        assertEquals(2.5, Stat.median(List.of(4.0, 1.0, 3.0, 2.0)));
        assertTrue(Double.isNaN(Stat.median(List.of())), "no values, no median");
    }

    @Test
    void shouldSummariseValuesAsMedianMinAndMax()
    {
        final Stat stat = Stat.of(new double[] {2, 9, 4});

        assertEquals("4.0 (2.0-9.0)", stat.format("%.1f"));
        assertEquals("40 (20-90)", stat.format("%.0f", 10));
    }
}
