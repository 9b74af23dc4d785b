package bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A ratio's value, its text and whether it meets its target, in both directions. */
class RatioTest
{
    @Test
    void shouldMeetAnUpperBoundAtOrBelowIt()
    {
        assertTrue(Ratio.of("a", 1.5, 1, "us").against(Target.atMost(1.5)).isMet());
        assertTrue(Ratio.of("a", 1.6, 1, "us").against(Target.atMost(1.5)).isMissed());
        assertEquals("yes", Ratio.of("a", 1, 1, "us").against(Target.atMost(1.5)).metText());
        assertEquals("NO", Ratio.of("a", 2, 1, "us").against(Target.atMost(1.5)).metText());
    }

    @Test
    void shouldMeetALowerBoundAtOrAboveIt()
    {
        assertTrue(Ratio.of("a", 0.8, 1, "").against(Target.atLeast(0.8)).isMet());
        assertTrue(Ratio.of("a", 0.7, 1, "").against(Target.atLeast(0.8)).isMissed());
        assertEquals(">= 0.8x", Target.atLeast(0.8).describe());
        assertEquals("<= 1.5x", Target.atMost(1.5).describe());
    }

    @Test
    void shouldDescribeABoundWithoutAShortDecimalWithThreeSignificantDigits()
    {
        assertEquals("<= 0.333x", Target.atMost(1 / 3.0).describe());
        assertEquals("<= 1.0x", Target.atMost(1).describe());
    }

    @Test
    void shouldCompareRatesAsTheTimesTheyImply()
    {
        final Ratio bandwidth = Ratio.ofRatesAsTimes("bandwidth", 5, 10, "GB/s");

        assertEquals(2.0, bandwidth.value());
        assertEquals("2.00x", bandwidth.text());
        assertEquals("5.00 GB/s against 10.0 GB/s", bandwidth.figures());
    }

    @Test
    void shouldNeitherMeetNorHideATargetItCouldNotMeasure()
    {
        final Ratio missing = Ratio.of("a", 1, Double.NaN, "us").against(Target.atMost(1.5));

        assertFalse(missing.isMeasured());
        assertEquals("n/a", missing.text());
        assertTrue(missing.isMissed());
        assertFalse(Ratio.of("a", 1, Double.NaN, "us").isMissed(), "without a target nothing is missed");
    }

    @Test
    void shouldRefuseATargetThatIsNoPositiveNumber()
    {
        assertThrows(IllegalArgumentException.class, () -> Target.atMost(0));
        assertThrows(IllegalArgumentException.class, () -> Target.atLeast(Double.NaN));
    }
}
