package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The job watch on one host: 4 niodev ranks under bin/mpjrun's Java side, with an MPJ Express daemon of the
 * test's own ({@link NiodevDaemon}), rank {@link WatchFaultProgram#VICTIM} dying inside a Barrier loop or an
 * exclusive lock epoch, where niodev alone leaves the others waiting for ever. Each job must end non-zero,
 * naming the rank, within 10 s of the fault, with no rank left.
 */
@ExtendWith(OneJobAtATime.class)
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JobWatchJobsTest
{
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "kill9        | 1 | its connection to the launcher ended without a word",
        "halt-barrier | 1 | its connection to the launcher ended without a word",
        "halt-lock    | 1 | its connection to the launcher ended without a word",
        "exit3        | 3 | it called System.exit(3)",
        "throw        | 1 | its main threw java.lang.IllegalStateException: rank 2 fails on purpose",
        "stop         | 1 | no heartbeat for"})
    void shouldEndANiodevJobWithinTenSecondsOfARanksDeath(final String mode, final int exitCode, final String how)
        throws Exception
    {
        assumeMpjExpress();
        try (NiodevDaemon daemon = NiodevDaemon.start(MpjHome.prepare(MpjHome.defaultDirectory()), MpjJobs.java()))
        {
            final WatchedJob.Outcome outcome = WatchedJob.run(niodevJob(daemon, mode), environment(daemon), mode,
                null);

            WatchedJob.assertEndedNamingTheVictim(outcome, exitCode, how);
            System.out.printf("job watch, niodev on one host, %s: fault to launcher exit %d ms%n", mode,
                outcome.faultToExitMs());
        }
    }

    @Test
    void shouldTakeSystemExitZeroOnEveryRankForSuccess() throws Exception
    {
        assumeMpjExpress();
        try (NiodevDaemon daemon = NiodevDaemon.start(MpjHome.prepare(MpjHome.defaultDirectory()), MpjJobs.java()))
        {
            final JobResult result = MpjJobs.runCommand(niodevJob(daemon, "exit0"), environment(daemon),
                java.nio.file.Path.of(System.getProperty("user.dir")), java.time.Duration.ofSeconds(60));

            assertEquals(0, result.launcherExitCode(), result.output());
            assertTrue(!result.output().contains("died"), result.output());
        }
    }

    /** "ok": HelloAllgather's plain run (a mode it does not know); "caught": every rank prints a caught exception and a stack frame, and succeeds: output is no verdict. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ok", "caught"})
    void shouldRunAGoodNiodevJobWithTheWatchToSuccess(final String mode) throws Exception
    {
        assumeMpjExpress();
        try (NiodevDaemon daemon = NiodevDaemon.start(MpjHome.prepare(MpjHome.defaultDirectory()), MpjJobs.java()))
        {
            final List<String> command = WatchedJob.launcher(List.of("-np", "3", "-dev", "niodev", "-machinesfile",
                daemon.machinesFile().toString(), "-cp", WatchedJob.testClasses(), HelloAllgather.class.getName(),
                mode));
            final JobResult result = MpjJobs.runCommand(command, environment(daemon),
                java.nio.file.Path.of(System.getProperty("user.dir")), java.time.Duration.ofSeconds(60));

            assertEquals(0, result.launcherExitCode(), result.output());
            assertTrue(result.output().contains("rank 2 of 3: " + HelloAllgather.OK_LINE), result.output());
            assertTrue(!result.output().contains("mpjrun:"), result.output());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "kill9        | its connection to the launcher ended without a word",
        "halt-barrier | its connection to the launcher ended without a word",
        "exit3        | it called System.exit(3)"})
    void shouldEndAHybdevJobWithinTenSecondsOfAJvmsDeath(final String mode, final String how) throws Exception
    {
        assumeMpjExpress();
        try (NiodevDaemon daemon = NiodevDaemon.start(MpjHome.prepare(MpjHome.defaultDirectory()), MpjJobs.java()))
        {
            // Two loopback addresses: two hosts to MPJ Express, so two JVMs of two rank threads each (0, 1 and 2, 3).
            final Path machines = Files.writeString(daemon.home().resolveSibling("hybdev-machines"),
                "127.0.0.1\n127.0.0.2\n");
            final List<String> command = WatchedJob.launcher(List.of("-np", Integer.toString(WatchedJob.RANKS), "-dev",
                "hybdev", "-machinesfile", machines.toString(), "-cp", WatchedJob.testClasses(),
                WatchFaultProgram.class.getName(), mode.equals("kill9") ? "barrier" : mode));
            final WatchedJob.Outcome outcome = WatchedJob.run(command, environment(daemon), mode, null);

            // Ranks 2 and 3 share a JVM, so either may be the first the watch sees end.
            assertTrue(outcome.output().contains("mpjrun: rank 2 died (" + how) ||
                outcome.output().contains("mpjrun: rank 3 died (" + how), outcome.output());
            assertTrue(outcome.exitCode() != 0 && outcome.faultToExitMs() < WatchedJob.WITHIN.toMillis(),
                () -> "exit " + outcome.exitCode() + " after " + outcome.faultToExitMs() + " ms:\n" + outcome.output());
            System.out.printf("job watch, hybdev on one host (2 JVMs), %s: fault to launcher exit %d ms%n", mode,
                outcome.faultToExitMs());
        }
    }

    static List<String> niodevJob(final NiodevDaemon daemon, final String mode)
    {
        return WatchedJob.launcher(new ArrayList<>(List.of("-np", Integer.toString(WatchedJob.RANKS), "-dev",
            "niodev", "-machinesfile", daemon.machinesFile().toString(), "-cp", WatchedJob.testClasses(),
            WatchFaultProgram.class.getName(), mode.equals("kill9") || mode.equals("stop") ? "barrier" : mode)));
    }

    static Map<String, String> environment(final NiodevDaemon daemon)
    {
        return Map.of("MPJ_HOME", daemon.home().toString());
    }

    private static void assumeMpjExpress()
    {
        final String refusal = MpjHome.unavailableReason();
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
    }
}
