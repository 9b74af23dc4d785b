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
}
