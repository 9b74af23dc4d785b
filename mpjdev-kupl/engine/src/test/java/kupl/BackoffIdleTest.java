package kupl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link BackoffIdle}: the states in their order, the doubling park periods and their cap,
 * {@code reset}, the interrupt status kept across parks, and the settings taken from a
 * {@link KuplConfig}. Parks go to a recording {@link Parker}, so nothing here sleeps.
 */
class BackoffIdleTest
{
    private static final long HOUR_NS = TimeUnit.HOURS.toNanos(1);

    /** Records every park instead of sleeping. */
    private static final class RecordingParker implements Parker
    {
        final List<Long> periodsNs = new ArrayList<>();
        final List<Boolean> interruptedWhileParking = new ArrayList<>();
        Object lastBlocker;

        @Override
        public void park(final Object blocker, final long maxNs, final BooleanSupplier ready)
        {
            lastBlocker = blocker;
            periodsNs.add(maxNs);
            interruptedWhileParking.add(Thread.currentThread().isInterrupted());
        }
    }

    @Test
    void shouldStartNotIdleThenSpinForTheSpinBudget()
    {
        final BackoffIdle idle = new BackoffIdle(new BackoffIdle.Settings(3, HOUR_NS, 10, 80, new RecordingParker()));
        assertEquals(BackoffIdle.State.NOT_IDLE, idle.state());

        final List<BackoffIdle.State> states = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            idle.idle();
            states.add(idle.state());
        }

        assertEquals(List.of(BackoffIdle.State.SPINNING, BackoffIdle.State.SPINNING, BackoffIdle.State.SPINNING,
            BackoffIdle.State.YIELDING, BackoffIdle.State.YIELDING), states);
    }

    @Test
    void shouldParkWithDoublingPeriodsUpToTheCapOnceSpinsAndYieldTimeAreOver()
    {
        final RecordingParker parker = new RecordingParker();
        final BackoffIdle idle = new BackoffIdle(new BackoffIdle.Settings(1, 0, 10, 80, parker));

        idle.idle();
        assertEquals(BackoffIdle.State.SPINNING, idle.state());
        for (int i = 0; i < 6; i++)
        {
            idle.idle();
        }

        assertAll(
            () -> assertEquals(BackoffIdle.State.PARKING, idle.state()),
            () -> assertEquals(List.of(10L, 20L, 40L, 80L, 80L, 80L), parker.periodsNs),
            () -> assertSame(idle, parker.lastBlocker, "thread dumps name the idle strategy as the blocker"));
    }

    @Test
    @Timeout(30)
    void shouldYieldForTheYieldTimeThenPark()
    {
        final RecordingParker parker = new RecordingParker();
        final BackoffIdle idle = new BackoffIdle(new BackoffIdle.Settings(2, TimeUnit.MILLISECONDS.toNanos(1), 10, 80,
            parker));
        final List<BackoffIdle.State> phases = new ArrayList<>();

        while (idle.state() != BackoffIdle.State.PARKING)
        {
            idle.idle();
            if (phases.isEmpty() || phases.get(phases.size() - 1) != idle.state())
            {
                phases.add(idle.state());
            }
        }

        assertEquals(List.of(BackoffIdle.State.SPINNING, BackoffIdle.State.YIELDING, BackoffIdle.State.PARKING),
            phases);
        assertEquals(List.of(10L), parker.periodsNs);
    }

    @Test
    void shouldSpinAgainAndParkFromTheFirstPeriodAfterReset()
    {
        final RecordingParker parker = new RecordingParker();
        final BackoffIdle idle = new BackoffIdle(new BackoffIdle.Settings(1, 0, 10, 80, parker));
        for (int i = 0; i < 4; i++)
        {
            idle.idle();
        }

        idle.reset();
        assertEquals(BackoffIdle.State.NOT_IDLE, idle.state());
        idle.idle();
        assertEquals(BackoffIdle.State.SPINNING, idle.state());
        idle.idle();

        assertEquals(List.of(10L, 20L, 40L, 10L), parker.periodsNs);
    }

    @Test
    void shouldParkWithTheInterruptStatusClearedAndRestoreItOnReset()
    {
        final RecordingParker parker = new RecordingParker();
        final BackoffIdle idle = new BackoffIdle(new BackoffIdle.Settings(0, 0, 10, 80, parker));
        try
        {
            Thread.currentThread().interrupt();

            idle.idle();
            idle.idle();
            final boolean interruptedBeforeReset = Thread.currentThread().isInterrupted();
            idle.reset();

            assertAll(
                () -> assertEquals(List.of(false, false), parker.interruptedWhileParking,
                    "a park with the status set would return at once: the wait would spin"),
                () -> assertFalse(interruptedBeforeReset),
                () -> assertTrue(Thread.currentThread().isInterrupted(), "reset gives the interrupt back"));
        }
        finally
        {
            Thread.interrupted();
        }
    }

    @Test
    void shouldNotInventAnInterrupt()
    {
        final BackoffIdle idle = new BackoffIdle(new BackoffIdle.Settings(0, 0, 10, 80, new RecordingParker()));

        idle.idle();
        idle.reset();

        assertFalse(Thread.interrupted());
    }

    @Test
    void shouldSpinOnlyWhileProcessesDoNotOutnumberCores()
    {
        assertAll(
            () -> assertEquals(BackoffIdle.Settings.AUTO_SPINS, BackoffIdle.Settings.autoSpins(2, 2)),
            () -> assertEquals(BackoffIdle.Settings.AUTO_SPINS, BackoffIdle.Settings.autoSpins(1, 64)),
            () -> assertEquals(0, BackoffIdle.Settings.autoSpins(3, 2)));
    }

    @Test
    void shouldTakeSpinsAndYieldTimeFromTheConfig()
    {
        final KuplConfig config = KuplConfig.fromVariables(Map.of("KUPL_SHM_WAIT_SPINS", "7",
            "KUPL_SHM_WAIT_YIELD_US", "30"));

        final BackoffIdle.Settings settings = BackoffIdle.Settings.fromConfig(config, 4);

        assertAll(
            () -> assertEquals(7, settings.spins()),
            () -> assertEquals(30_000L, settings.yieldNs()),
            () -> assertEquals(BackoffIdle.Settings.MIN_PARK_NS, settings.minParkNs()),
            () -> assertEquals(BackoffIdle.Settings.MAX_PARK_NS, settings.maxParkNs()));
    }

    @Test
    void shouldRefuseBadSettingsNamingTheValues()
    {
        final Parker parker = new RecordingParker();
        final IllegalArgumentException negativeSpins = assertThrows(IllegalArgumentException.class,
            () -> new BackoffIdle.Settings(-1, 0, 10, 80, parker));
        final IllegalArgumentException capBelowMin = assertThrows(IllegalArgumentException.class,
            () -> new BackoffIdle.Settings(0, 0, 80, 10, parker));

        assertAll(
            () -> assertTrue(negativeSpins.getMessage().contains("spins=-1"), negativeSpins.getMessage()),
            () -> assertTrue(capBelowMin.getMessage().contains("minParkNs=80, maxParkNs=10"), capBelowMin.getMessage()),
            () -> assertThrows(IllegalArgumentException.class,
                () -> BackoffIdle.Settings.fromConfig(KuplConfig.defaults(), 0)),
            () -> assertThrows(NullPointerException.class, () -> new BackoffIdle.Settings(0, 0, 10, 80, null)));
    }

    @Test
    void shouldSpinAndYieldOnlyTheBudgetsShare()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);
        budget.waitEnded(BackoffIdle.State.PARKING, HOUR_NS);
        final AtomicLong clockNs = new AtomicLong();
        final RecordingParker parker = new RecordingParker();
        final BackoffIdle idle = new BackoffIdle(new BackoffIdle.Settings(8, 4_000, 10, 80, parker, budget),
            clockNs::get);

        final List<BackoffIdle.State> states = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            idle.idle();
            states.add(idle.state());
        }
        clockNs.set(999);
        idle.idle();
        states.add(idle.state());
        clockNs.set(1_000);
        idle.idle();
        states.add(idle.state());

        // A quarter of 8 spins, then a quarter of 4 us of yielding, then parking.
        assertEquals(List.of(BackoffIdle.State.SPINNING, BackoffIdle.State.SPINNING, BackoffIdle.State.YIELDING,
            BackoffIdle.State.YIELDING, BackoffIdle.State.YIELDING, BackoffIdle.State.PARKING), states);
        assertEquals(List.of(10L), parker.periodsNs);
    }

    @Test
    void shouldTellTheBudgetInWhichStateEachWaitEnded()
    {
        final SpinBudget budget = SpinBudget.adaptive(true, true);
        final AtomicLong clockNs = new AtomicLong(1_000_000);
        final BackoffIdle idle = new BackoffIdle(new BackoffIdle.Settings(1, 10_000, 10, 80, new RecordingParker(),
            budget), clockNs::get);

        // A long wait: spin, yield from t = 1 ms, park at t = 1.02 ms, end at t = 51 ms.
        idle.idle();
        idle.idle();
        clockNs.addAndGet(20_000);
        idle.idle();
        assertEquals(BackoffIdle.State.PARKING, idle.state());
        clockNs.addAndGet(49_980_000);
        idle.reset();
        assertAll(
            () -> assertEquals(SpinBudget.PENALTY_LEVELS, budget.spinLevel()),
            () -> assertEquals(SpinBudget.PENALTY_LEVELS, budget.yieldLevel()));

        // A short one: the budget's 0 spins, then it ends 5 us into yielding.
        idle.idle();
        assertEquals(BackoffIdle.State.YIELDING, idle.state());
        clockNs.addAndGet(5_000);
        idle.reset();
        assertAll(
            () -> assertEquals(SpinBudget.PENALTY_LEVELS - 1, budget.spinLevel()),
            () -> assertEquals(SpinBudget.PENALTY_LEVELS - 1, budget.yieldLevel()));

        // A reset without an idle call in between teaches nothing.
        idle.reset();
        assertEquals(SpinBudget.PENALTY_LEVELS - 1, budget.spinLevel());
    }

    @Test
    void shouldAdaptOnlyThePhasesLeftToAuto()
    {
        final BackoffIdle.Settings auto = BackoffIdle.Settings.fromConfig(KuplConfig.defaults(), 1);
        final BackoffIdle.Settings spinsFixed = BackoffIdle.Settings.fromConfig(
            KuplConfig.fromVariables(Map.of("KUPL_SHM_WAIT_SPINS", "7")), 1);
        final BackoffIdle.Settings explicit = BackoffIdle.Settings.fromConfig(KuplConfig.fromVariables(Map.of(
            "KUPL_SHM_WAIT_SPINS", "7", "KUPL_SHM_WAIT_YIELD_US", "30")), 1);
        spinsFixed.budget().waitEnded(BackoffIdle.State.PARKING, HOUR_NS);
        explicit.budget().waitEnded(BackoffIdle.State.PARKING, HOUR_NS);

        assertAll(
            () -> assertEquals(BackoffIdle.Settings.AUTO_SPINS, auto.spins()),
            () -> assertEquals(BackoffIdle.Settings.AUTO_YIELD_NS, auto.yieldNs()),
            () -> assertTrue(auto.budget().adaptive()),
            () -> assertEquals(7, spinsFixed.budget().spins(spinsFixed.spins())),
            () -> assertEquals(BackoffIdle.Settings.AUTO_YIELD_NS >> SpinBudget.PENALTY_LEVELS,
                spinsFixed.budget().yieldNs(spinsFixed.yieldNs())),
            () -> assertFalse(explicit.budget().adaptive()),
            () -> assertEquals(30_000L, explicit.budget().yieldNs(explicit.yieldNs())),
            () -> assertFalse(auto.withParker(new RecordingParker(), 1, 1).budget() == auto.budget(),
                "a waiter that parks differently learns on its own"));
    }
}
