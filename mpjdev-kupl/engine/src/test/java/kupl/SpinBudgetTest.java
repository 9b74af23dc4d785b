package kupl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link SpinBudget}'s state machine, driven by the outcomes of waits given by hand: no clock,
 * no threads, nothing timed.
 */
class SpinBudgetTest
{
    private static final int MAX_SPINS = 1_000;
    private static final long MAX_YIELD_NS = 2_000_000;
    private static final long SHORT_NS = SpinBudget.SHORT_WAIT_NS - 1;
    private static final long LONG_NS = 50_000_000;

    private static void parkLong(final SpinBudget budget, final int waits)
    {
        for (int i = 0; i < waits; i++)
        {
            budget.waitEnded(BackoffIdle.State.PARKING, LONG_NS);
        }
    }

    @Test
    void shouldStartWithTheWholeAllowance()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);

        assertAll(
            () -> assertEquals(MAX_SPINS, budget.spins(MAX_SPINS)),
            () -> assertEquals(MAX_YIELD_NS, budget.yieldNs(MAX_YIELD_NS)),
            () -> assertTrue(budget.adaptive()));
    }

    @Test
    void shouldHalveTheAllowanceTwiceAfterAWaitThatParkedLong()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);

        parkLong(budget, 1);

        assertAll(
            () -> assertEquals(SpinBudget.PENALTY_LEVELS, budget.spinLevel()),
            () -> assertEquals(MAX_SPINS >> SpinBudget.PENALTY_LEVELS, budget.spins(MAX_SPINS)),
            () -> assertEquals(MAX_YIELD_NS >> SpinBudget.PENALTY_LEVELS, budget.yieldNs(MAX_YIELD_NS)));
    }

    @Test
    void shouldStopBusyWaitingAfterAFewLongWaitsAndStayStoppedThere()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);

        parkLong(budget, SpinBudget.OFF);

        assertAll(
            () -> assertEquals(SpinBudget.OFF, budget.spinLevel()),
            () -> assertEquals(SpinBudget.OFF, budget.yieldLevel()),
            () -> assertEquals(0, budget.spins(MAX_SPINS)),
            () -> assertEquals(0, budget.yieldNs(MAX_YIELD_NS)));
    }

    @Test
    void shouldGrowBackOneLevelPerShortParkedWait()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);
        parkLong(budget, SpinBudget.OFF);

        budget.waitEnded(BackoffIdle.State.PARKING, SHORT_NS);

        assertAll(
            () -> assertEquals(SpinBudget.OFF - 1, budget.spinLevel()),
            () -> assertEquals(SpinBudget.OFF - 1, budget.yieldLevel()),
            () -> assertEquals(MAX_SPINS >> (SpinBudget.OFF - 1), budget.spins(MAX_SPINS)));

        for (int i = 0; i < SpinBudget.OFF; i++)
        {
            budget.waitEnded(BackoffIdle.State.PARKING, SHORT_NS);
        }
        assertAll(
            () -> assertEquals(0, budget.spinLevel()),
            () -> assertEquals(0, budget.yieldLevel()));
    }

    @Test
    void shouldGrowOnlyTheSpinsAfterWaitsThatEndedWhileSpinning()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);
        parkLong(budget, 2);

        budget.waitEnded(BackoffIdle.State.SPINNING, 0);

        assertAll(
            () -> assertEquals(2 * SpinBudget.PENALTY_LEVELS - 1, budget.spinLevel()),
            () -> assertEquals(2 * SpinBudget.PENALTY_LEVELS, budget.yieldLevel()));
    }

    @Test
    void shouldGrowOnlyTheYieldAfterALongerWaitThatEndedWhileYielding()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);
        parkLong(budget, 1);

        budget.waitEnded(BackoffIdle.State.YIELDING, SpinBudget.SHORT_WAIT_NS);

        assertAll(
            () -> assertEquals(SpinBudget.PENALTY_LEVELS, budget.spinLevel()),
            () -> assertEquals(SpinBudget.PENALTY_LEVELS - 1, budget.yieldLevel()));
    }

    @Test
    void shouldGrowBothAfterAShortWaitThatEndedWhileYielding()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);
        parkLong(budget, 1);

        budget.waitEnded(BackoffIdle.State.YIELDING, SHORT_NS);

        assertAll(
            () -> assertEquals(SpinBudget.PENALTY_LEVELS - 1, budget.spinLevel()),
            () -> assertEquals(SpinBudget.PENALTY_LEVELS - 1, budget.yieldLevel()));
    }

    @Test
    void shouldSettleLowWhenEveryQuickWaitIsFollowedByALongOne()
    {
        // A collective that waits on a slower rank between quick barriers: the ray tracer's pattern.
        final SpinBudget budget = SpinBudget.adaptive(true, true);

        for (int i = 0; i < 20; i++)
        {
            budget.waitEnded(BackoffIdle.State.SPINNING, 0);
            budget.waitEnded(BackoffIdle.State.PARKING, LONG_NS);
        }

        assertAll(
            () -> assertEquals(SpinBudget.OFF, budget.spinLevel()),
            () -> assertEquals(SpinBudget.OFF, budget.yieldLevel()));
    }

    @Test
    void shouldNeverLeaveItsLevelsBounds()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);

        for (int i = 0; i < 10; i++)
        {
            budget.waitEnded(BackoffIdle.State.SPINNING, 0);
        }
        assertEquals(0, budget.spinLevel());
        parkLong(budget, 10);
        assertAll(
            () -> assertEquals(SpinBudget.OFF, budget.spinLevel()),
            () -> assertEquals(0, budget.spins(Integer.MAX_VALUE)));
    }

    @Test
    void shouldLearnNothingFromAWaitThatNeverIdled()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);
        parkLong(budget, 1);

        budget.waitEnded(BackoffIdle.State.NOT_IDLE, 0);

        assertEquals(SpinBudget.PENALTY_LEVELS, budget.spinLevel());
    }

    @Test
    void shouldKeepAnExplicitPhaseWhole()
    {
        final SpinBudget spinsFixed = SpinBudget.adaptive(false, true);
        final SpinBudget fixed = SpinBudget.fixed();

        parkLong(spinsFixed, SpinBudget.OFF);
        parkLong(fixed, SpinBudget.OFF);

        assertAll(
            () -> assertEquals(MAX_SPINS, spinsFixed.spins(MAX_SPINS)),
            () -> assertEquals(0, spinsFixed.yieldNs(MAX_YIELD_NS)),
            () -> assertEquals(MAX_SPINS, fixed.spins(MAX_SPINS)),
            () -> assertEquals(MAX_YIELD_NS, fixed.yieldNs(MAX_YIELD_NS)),
            () -> assertFalse(fixed.adaptive()));
    }

    @Test
    void shouldStartAFreshCopyWholeAndOfTheSameKind()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, false);
        parkLong(budget, SpinBudget.OFF);

        final SpinBudget fresh = budget.fresh();
        parkLong(fresh, 1);

        assertAll(
            () -> assertEquals(SpinBudget.PENALTY_LEVELS, fresh.spinLevel()),
            () -> assertEquals(MAX_YIELD_NS, fresh.yieldNs(MAX_YIELD_NS)),
            () -> assertEquals(SpinBudget.OFF, budget.spinLevel(), "the original is unchanged"));
    }
}
