package mpjrun.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The process kit with small real processes (shell commands), one behaviour per test. */
@Tag("slow")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProcessJobTest
{
    private static final Duration GENEROUS = Duration.ofSeconds(30);

    /** A job whose rank {@code r} runs {@code scripts[r]} with {@code sh -c}. */
    private static ProcessJob start(final ProcessJob.Options options, final String... scripts) throws Exception
    {
        return ProcessJob.start(scripts.length, rank -> new ProcessBuilder("sh", "-c", scripts[rank]), options,
            (rank, status) -> { });
    }

    @Test
    void shouldPrefixEveryForwardedLineWithItsRank() throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final ProcessJob.Options options = ProcessJob.Options.forwarded(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), rank -> "[" + rank + "] ");
        try (ProcessJob job = start(options, "echo one; echo two", "echo oops >&2; printf 'no newline'"))
        {
            assertEquals(0, job.awaitExit(GENEROUS).exitCode());
        }
        final List<String> outLines = out.toString(StandardCharsets.UTF_8).lines().sorted().toList();
        assertEquals(List.of("[0] one", "[0] two", "[1] no newline"), outLines);
        assertEquals("[1] oops\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldCaptureEachRanksOutputApart() throws Exception
    {
        try (ProcessJob job = start(ProcessJob.Options.captured(), "echo zero", "echo one >&2"))
        {
            job.awaitExit(GENEROUS);
            assertEquals("zero\n", job.output(0));
            assertEquals("one\n", job.output(1));
            assertEquals("[rank 0] zero\n[rank 1] one\n", job.outputs());
        }
    }

    @Test
    void shouldReportTheTimeLimitAs124AndKillTheJob() throws Exception
    {
        try (ProcessJob job = start(ProcessJob.Options.captured(), "exec sleep 60"))
        {
            final ProcessJob.JobExit exit = job.awaitExit(Duration.ofMillis(300));
            assertTrue(exit.timedOut(), exit::toString);
            assertEquals(JobJudge.TIMED_OUT, exit.exitCode());
            assertFalse(job.process(0).isAlive());
            assertEquals(137, exit.exitCodes()[0], exit::toString);
        }
    }

    @Test
    void shouldKillWhatAProcessStartedEvenAfterItExited() throws Exception
    {
        final long grandchild;
        try (ProcessJob job = start(ProcessJob.Options.captured().trackingDescendants(),
            "sleep 60 & echo $!; sleep 1"))
        {
            final ProcessJob.JobExit exit = job.awaitExit(GENEROUS);
            assertEquals(0, exit.exitCode(), exit::toString);
            grandchild = Long.parseLong(job.output(0).strip());
        }
        assertTrue(ProcessHandle.of(grandchild).map(h -> !h.isAlive()).orElse(true),
            "the process started by the job's process is still running: pid " + grandchild);
    }

    @Test
    void shouldKillTheWholeTreeOfARunningProcess() throws Exception
    {
        try (ProcessJob job = start(ProcessJob.Options.captured(), "sleep 60 & echo $!; wait"))
        {
            while (job.output(0).isBlank())
            {
                Thread.sleep(10);
            }
            final long grandchild = Long.parseLong(job.output(0).strip());
            job.kill(0);
            assertFalse(job.process(0).isAlive());
            assertTrue(ProcessHandle.of(grandchild).map(h -> !h.isAlive()).orElse(true), "pid " + grandchild);
        }
    }

    @Test
    void shouldNameTheFirstFailingRankAndStopTheOthers() throws Exception
    {
        final ProcessJob.Options options = ProcessJob.Options.captured().stoppingAtFirstFailure();
        try (ProcessJob job = start(options, "exec sleep 60", "exit 3", "exec sleep 60"))
        {
            final ProcessJob.JobExit exit = job.awaitExit(GENEROUS);
            assertFalse(exit.timedOut(), exit::toString);
            assertEquals(1, exit.firstFailedRank(), exit::toString);
            assertEquals(3, exit.exitCode(), exit::toString);
            assertArrayEquals(new int[] {137, 3, 137}, exit.exitCodes(), exit::toString);
        }
    }

    @Test
    void shouldTellAProcessThatEndedUnnoticedFromTheOnesItKilled() throws Exception
    {
        // Rank 0's exit is held up on its way to the kit (as if the kit's JVM had been stopped), so the kit
        // reads rank 1's failure first; rank 0 ended before the kit stopped the job, and is not taken for killed.
        final CountDownLatch release = new CountDownLatch(1);
        final ProcessJob.Options options = ProcessJob.Options.captured().stoppingAtFirstFailure();
        try (ProcessJob job = ProcessJob.start(3, rank -> new ProcessBuilder("sh", "-c",
            new String[] {"exit 7", "sleep 1; exit 3", "exec sleep 60"}[rank]), options, (rank, status) ->
            {
                if (rank == 0)
                {
                    awaitQuietly(release);
                }
            }))
        {
            final ProcessJob.JobExit exit = job.awaitExit(GENEROUS);
            release.countDown();

            assertEquals(List.of(1, 0), exit.endedOnTheirOwn(), exit::toString);
            assertArrayEquals(new int[] {7, 3, 137}, exit.exitCodes(), exit::toString);
            assertTrue(exit.stoppedByKit(2) && !exit.stoppedByKit(0), exit::toString);
            assertEquals(1, exit.firstFailedRank(), exit::toString);
        }
    }

    @Test
    void shouldStopTheJobWhenAskedFromAnotherThread() throws Exception
    {
        try (ProcessJob job = start(ProcessJob.Options.captured(), "exec sleep 60", "exec sleep 60"))
        {
            Thread.ofPlatform().start(job::requestStop);
            final long startNs = System.nanoTime();
            final ProcessJob.JobExit exit = job.awaitExit(GENEROUS);

            assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(10), exit::toString);
            assertEquals(List.of(), exit.endedOnTheirOwn(), exit::toString);
            assertArrayEquals(new int[] {137, 137}, exit.exitCodes(), exit::toString);
            assertFalse(exit.timedOut());
        }
    }

    @Test
    void shouldLetTheOthersRunOnWithoutStopAtFirstFailure() throws Exception
    {
        try (ProcessJob job = start(ProcessJob.Options.captured(), "exit 2", "sleep 1; echo survived"))
        {
            final ProcessJob.JobExit exit = job.awaitExit(GENEROUS);
            assertArrayEquals(new int[] {2, 0}, exit.exitCodes(), exit::toString);
            assertEquals(0, exit.firstFailedRank());
            assertEquals("survived\n", job.output(1));
        }
    }

    @Test
    void shouldCallOnExitWithEachRank() throws Exception
    {
        final boolean[] seen = new boolean[2];
        try (ProcessJob job = ProcessJob.start(2, rank -> new ProcessBuilder("true"), ProcessJob.Options.captured(),
            (rank, status) -> seen[rank] = true))
        {
            job.awaitExit(GENEROUS);
        }
        assertArrayEquals(new boolean[] {true, true}, seen);
    }

    @Test
    void shouldRejectBadArguments()
    {
        assertThrows(IllegalArgumentException.class,
            () -> ProcessJob.start(0, rank -> new ProcessBuilder("true"), ProcessJob.Options.captured(), (rank, status) -> { }));
        final IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () ->
        {
            try (ProcessJob job = start(ProcessJob.Options.captured(), "true"))
            {
                job.awaitExit(Duration.ZERO);
            }
        });
        assertTrue(zero.getMessage().contains("timeout=PT0S must be positive"), zero::getMessage);
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(30, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
