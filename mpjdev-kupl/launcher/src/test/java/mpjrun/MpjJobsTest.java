package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real MPJ Express jobs through {@link MpjJobs} on MPJ Express's own devices: results judged
 * from exit status and output, time limits enforced, and no process left behind.
 */
@Tag("slow")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MpjJobsTest
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(40);
    private static final Duration HANG_TIMEOUT = Duration.ofSeconds(3);
    /** The argument of the {@code sleep} that {@link #shouldEndWhatALauncherLeftRunningWhenItExited} leaves behind. */
    /** Unique to this test JVM, so that other builds running the same test on this host are not counted. */
    private static final String ORPHAN_MARKER = "59." + ProcessHandle.current().pid();

    @AfterEach
    void shouldLeaveNoProcessBehind() throws InterruptedException
    {
        // Children of this JVM, and orphans (re-parented to init, so no longer our descendants) found by
        // the program's name in their command line. A killed process can take a moment to be reaped.
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<String> left = processesLeft();
        while (!left.isEmpty() && System.nanoTime() - deadlineNs < 0)
        {
            Thread.sleep(50);
            left = processesLeft();
        }
        assertEquals(List.of(), left, "processes left running after the job");
    }

    private static List<String> processesLeft()
    {
        final long self = ProcessHandle.current().pid();
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive).filter(p -> p.pid() != self)
            .filter(p -> p.parent().map(parent -> parent.pid() == self).orElse(false) ||
                p.info().commandLine().orElse("").contains(HelloAllgather.class.getName()) ||
                p.info().commandLine().orElse("").contains(ORPHAN_MARKER))
            .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
    }

    @ParameterizedTest(name = "{0} with {1} ranks")
    @CsvSource({"MULTICORE, 1", "MULTICORE, 2", "MULTICORE, 3", "MULTICORE, 4", "NIODEV, 1", "NIODEV, 2", "NIODEV, 4",
        "SHM, 1", "SHM, 2", "SHM, 4"})
    void shouldRunEveryRankToTheEnd(final MpjDevice device, final int ranks) throws Exception
    {
        final JobResult result = MpjJobs.run(device, spec(ranks), JOB_TIMEOUT).requireSuccess();

        for (int rank = 0; rank < ranks; rank++)
        {
            final String line = "rank " + rank + " of " + ranks + ": " + HelloAllgather.OK_LINE;
            assertTrue(result.output().lines().anyMatch(line::equals),
                () -> "no '" + line + "' in\n" + result.output());
        }
        System.out.printf("%s job of %d ranks took %d ms%n", device, ranks, result.elapsed().toMillis());
    }

    @ParameterizedTest
    @EnumSource(value = MpjDevice.class, names = {"SHM", "NIODEV"})
    void shouldRunAOneNodeJobOnThisMachineAsItIs(final MpjDevice device) throws Exception
    {
        final JobResult result = MpjJobs.run(device, 1, spec(2), JOB_TIMEOUT, MpjHome.defaultDirectory(), Map.of())
            .requireSuccess();

        assertTrue(result.output().lines().anyMatch(("rank 1 of 2: " + HelloAllgather.OK_LINE)::equals),
            result::output);
        assertNull(MpjJobs.unavailableReason(device, 1));
    }

    @Test
    void shouldRefuseNodesMulticoreCannotSpan()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> MpjJobs.run(MpjDevice.MULTICORE, 2, spec(2), JOB_TIMEOUT, MpjHome.defaultDirectory(), Map.of()));

        assertTrue(refused.getMessage().contains("cannot span nodes"), refused::getMessage);
        assertThrows(IllegalArgumentException.class,
            () -> MpjJobs.run(MpjDevice.SHM, 0, spec(1), JOB_TIMEOUT, MpjHome.defaultDirectory(), Map.of()));
    }

    @ParameterizedTest
    @EnumSource(value = MpjDevice.class, names = {"MULTICORE", "NIODEV"})
    void shouldFailAJobWhoseRankThrowsThoughTheStarterExitsWithZero(final MpjDevice device) throws Exception
    {
        final JobResult result = MpjJobs.run(device, spec(3, "throw"), JOB_TIMEOUT);

        assertEquals(JobResult.FAILED_IN_OUTPUT, result.exitCode(), result::toString);
        assertEquals(0, result.launcherExitCode(), "MPJ Express's starter exits with 0 whatever the ranks do");
        assertFalse(result.timedOut());
        assertTrue(result.failureLines().stream().anyMatch(line -> line.contains("rank 2 fails on purpose")),
            () -> "failure lines " + result.failureLines() + " of\n" + result.output());
    }

    @ParameterizedTest
    @EnumSource(value = MpjDevice.class, names = {"MULTICORE", "NIODEV"})
    void shouldKillAJobThatOutlivesItsTimeLimit(final MpjDevice device) throws Exception
    {
        final long startNs = System.nanoTime();
        final JobResult result = MpjJobs.run(device, spec(2, "hang"), HANG_TIMEOUT);

        assertTrue(result.timedOut(), result::toString);
        assertEquals(JobResult.TIMED_OUT, result.exitCode());
        assertTrue(result.output().contains("did not end within " + HANG_TIMEOUT.toMillis() + " ms"), result::output);
        assertTrue(System.nanoTime() - startNs < HANG_TIMEOUT.plusSeconds(15).toNanos(), "the kill took too long");
    }

    @Test
    void shouldEndWhatALauncherLeftRunningWhenItExited() throws Exception
    {
        // A launcher that dies leaves its children to init: they must not outlive the job (checked after each test).
        final JobResult result = MpjJobs.runCommand(List.of("bash", "-c",
            "sleep " + ORPHAN_MARKER + " & sleep 0.5; echo started"), Map.of(),
            Path.of(System.getProperty("user.dir")), JOB_TIMEOUT);

        assertEquals(0, result.exitCode(), result::toString);
        assertEquals("started\n", result.output());
    }

    private static JobSpec spec(final int ranks, final String... appArgs)
    {
        return new JobSpec(ranks, MpjJobs.currentClassPath(), List.of(), HelloAllgather.class.getName(),
            List.of(appArgs), false);
    }
}
