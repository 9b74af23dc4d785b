package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The process's progress in every wait ({@link Waiter#installProcessProgress}): run between the checks of a
 * wait that finds its condition false, its failure the cause of the wait's, every one of several driven, and
 * none of it in the waits of
 * {@link Waiter#withProgressInAttempts()}.
 */
@Timeout(30)
class ProcessProgressTest
{
    private final CountingProgress progress = new CountingProgress();

    @AfterEach
    void removeTheProgress()
    {
        Waiter.removeProcessProgress(progress);
    }

    private static Waiter configuredWaiter()
    {
        return Waiter.fromConfig(KuplConfig.defaults(),
            new Liveness(List.of(ProcessIdentity.current()), 0, DeadRankRecord.processLocal()));
    }

    @Test
    void shouldRunTheProgressBetweenTheChecksOfEveryWait()
    {
        Waiter.installProcessProgress(progress);
        final AtomicInteger checks = new AtomicInteger();

        // The progress is what makes the condition true, as a send completed by the device's pass would be.
        configuredWaiter().await(() -> checks.incrementAndGet() > 1 && progress.passes.get() >= 100,
            "a condition only the progress makes true");

        assertTrue(progress.passes.get() >= 100, "passes: " + progress.passes.get());
    }

    @Test
    void shouldNotRunTheProgressWhenTheConditionHoldsAtTheFirstCheck()
    {
        Waiter.installProcessProgress(progress);

        configuredWaiter().await(() -> true, "a condition that holds");

        assertEquals(0, progress.passes.get());
    }

    @Test
    void shouldNotRunTheProgressInTheWaitsOfTheProgressItself()
    {
        Waiter.installProcessProgress(progress);
        final AtomicInteger checks = new AtomicInteger();

        configuredWaiter().withProgressInAttempts().await(() -> checks.incrementAndGet() >= 1000, "1000 checks");

        assertEquals(0, progress.passes.get());
    }

    @Test
    void shouldFailTheWaitWithTheProgressFailureAsItsCause()
    {
        final IllegalStateException broken = new IllegalStateException("the device is broken");
        progress.failure = broken;
        Waiter.installProcessProgress(progress);

        final KuplException thrown = assertThrows(KuplException.class,
            () -> configuredWaiter().await(() -> false, "a fence"));

        assertSame(broken, thrown.getCause());
        assertTrue(thrown.getMessage().startsWith("waiting for a fence: the process's messages (counting progress)"),
            thrown.getMessage());
    }

    @Test
    void shouldDriveEveryProgressInstalledWhereRanksAreThreadsOfOneProcess()
    {
        final CountingProgress other = new CountingProgress();
        Waiter.installProcessProgress(progress);
        Waiter.installProcessProgress(other);
        try
        {
            configuredWaiter().await(() -> progress.passes.get() >= 10 && other.passes.get() >= 10, "both driven");
        }
        finally
        {
            Waiter.removeProcessProgress(other);
        }

        assertTrue(progress.passes.get() >= 10 && other.passes.get() >= 10);
    }

    @Test
    void shouldWaitWithoutProgressOnceItIsRemoved()
    {
        Waiter.installProcessProgress(progress);
        Waiter.removeProcessProgress(progress);
        final AtomicInteger checks = new AtomicInteger();

        configuredWaiter().await(() -> checks.incrementAndGet() >= 100, "100 checks");

        assertEquals(0, progress.passes.get());
    }

    /** Counts its passes; fails every pass once given a failure. */
    private static final class CountingProgress implements ProcessProgress
    {
        final AtomicInteger passes = new AtomicInteger();
        volatile RuntimeException failure;

        @Override
        public boolean makeProgress()
        {
            if (failure != null)
            {
                throw failure;
            }
            passes.incrementAndGet();
            return false;
        }

        @Override
        public String toString()
        {
            return "counting progress";
        }
    }
}
