package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One fault of {@link WatchFaultProgram} under bin/mpjrun's Java side ({@link MpjRun}, in a JVM of its own,
 * so that its exit is the job's end) and the checks every watched job must pass: a non-zero exit naming the
 * dead rank within {@link #WITHIN} of the fault, every rank's JVM gone, nothing new in {@code /dev/shm}.
 */
final class WatchedJob
{
    /** The task's bound from a fault to the launcher's exit. */
    static final Duration WITHIN = Duration.ofSeconds(10);
    static final int RANKS = 4;
    private static final Pattern FAULT_AT = Pattern.compile("^fault at (\\d+)$", Pattern.MULTILINE);
    private static final Path DEV_SHM = Path.of("/dev/shm");

    private WatchedJob()
    {
    }

    /** What a faulty job did, for the checks and the printed figures. */
    record Outcome(int exitCode, long faultToExitMs, String output, List<Long> pids)
    {
    }

    /** {@code java -cp <this JVM's class path> mpjrun.MpjRun args...}. */
    static List<String> launcher(final List<String> args)
    {
        final List<String> command = new ArrayList<>(List.of(MpjJobs.java().toString(),
            LaunchEnvironment.NATIVE_ACCESS, "-cp", System.getProperty("java.class.path"), MpjRun.class.getName()));
        command.addAll(args);
        return command;
    }

    /** The test classes' directory, for the job's {@code -cp}. */
    static String testClasses()
    {
        return Path.of(System.getProperty("user.dir"), "target", "test-classes").toString() + File.pathSeparator;
    }

    /**
     * Runs {@code command} with {@code environment}, injects {@code mode}'s fault (for {@code kill9}, a
     * {@code kill -9} of rank {@link WatchFaultProgram#VICTIM}'s JVM; for {@code stop}, a SIGSTOP of it, which
     * only missed heartbeats reveal; for {@code node2} {@code killNode} runs once every rank loops) and waits
     * for the launcher.
     */
    static Outcome run(final List<String> command, final Map<String, String> environment, final String mode,
        final Runnable killNode) throws Exception
    {
        final Set<String> shmBefore = devShm();
        try (LaunchedJob job = LaunchedJob.start(command, environment))
        {
            final List<Long> pids = job.awaitPids(RANKS);
            for (int rank = 0; rank < RANKS; rank++)
            {
                job.awaitOutput("looping " + rank);
            }
            long faultMs = -1;
            if (mode.equals("kill9"))
            {
                faultMs = System.currentTimeMillis();
                LaunchedJob.signal(pids.get(WatchFaultProgram.VICTIM), "KILL");
            }
            else if (mode.equals("stop"))
            {
                faultMs = System.currentTimeMillis();
                LaunchedJob.signal(pids.get(WatchFaultProgram.VICTIM), "STOP");
            }
            else if (mode.equals("node2"))
            {
                faultMs = System.currentTimeMillis();
                killNode.run();
            }
            final int exitCode = job.awaitExit(WITHIN.plusSeconds(30));
            final long exitMs = System.currentTimeMillis();
            final String output = job.output();
            if (mode.equals("stop"))
            {
                // A stopped JVM cannot end itself, and its daemon, not the launcher, is its parent: killed here.
                LaunchedJob.signal(pids.get(WatchFaultProgram.VICTIM), "KILL");
            }
            if (faultMs < 0)
            {
                final Matcher matcher = FAULT_AT.matcher(output);
                assertTrue(matcher.find(), () -> "the victim printed no 'fault at' line:\n" + output);
                faultMs = Long.parseLong(matcher.group(1));
            }
            // The ranks were told, or lost the launcher: none may outlive the job by more than a moment.
            job.awaitEnded(pids, Duration.ofSeconds(3));
            final Set<String> shmAfter = devShm();
            // The engine's segments are unnamed files, so anything named that the job left carries a rank's pid;
            // other "kupl-" names are the temporary directories of tests running in parallel forks.
            final List<String> newInShm = shmAfter.stream().filter(name -> !shmBefore.contains(name))
                .filter(name -> namesAPid(name, pids))
                .toList();
            assertEquals(List.of(), newInShm, "left in /dev/shm by the job");
            return new Outcome(exitCode, exitMs - faultMs, output, pids);
        }
    }

    /** The checks of a job whose rank {@link WatchFaultProgram#VICTIM} died. */
    static void assertEndedNamingTheVictim(final Outcome outcome, final int exitCode, final String how)
    {
        assertEndedNamingOneOf(outcome, exitCode, how, List.of(WatchFaultProgram.VICTIM));
    }

    /**
     * The checks of a job whose ranks {@code dead} all died at once (a node that went down): the launcher names
     * one of them, the first whose end the watch saw, and a survivor says it ends because of that one.
     */
    static void assertEndedNamingOneOf(final Outcome outcome, final int exitCode, final String how,
        final List<Integer> dead)
    {
        final String output = outcome.output();
        assertNotEquals(0, outcome.exitCode(), output);
        assertEquals(exitCode, outcome.exitCode(), output);
        final List<Integer> named = dead.stream().filter(rank -> output.contains("mpjrun: rank " + rank + " died (" +
            how)).toList();
        assertEquals(1, named.size(), () -> "the launcher must name one of ranks " + dead + ":\n" + output);
        final int victim = named.get(0);
        assertTrue(outcome.faultToExitMs() < WITHIN.toMillis(), () -> "the launcher exited " +
            outcome.faultToExitMs() + " ms after the fault:\n" + output);
        final long told = Stream.iterate(0, rank -> rank < RANKS, rank -> rank + 1).filter(rank -> !dead.contains(rank))
            .filter(rank -> output.contains("mpjrun: rank " + rank + ": rank " + victim + " died (")).count();
        assertTrue(told > 0, () -> "no survivor said it was ending:\n" + output);
        dead.forEach(rank -> assertTrue(!output.contains("mpjrun: rank " + rank + ": rank "), output));
    }

    /** Whether one of {@code name}'s runs of digits is one of {@code pids} (a random suffix may contain a pid). */
    private static boolean namesAPid(final String name, final List<Long> pids)
    {
        return Stream.of(name.split("\\D+")).filter(digits -> !digits.isEmpty() && digits.length() < 19)
            .map(Long::parseLong).anyMatch(pids::contains);
    }

    private static Set<String> devShm() throws IOException
    {
        if (!Files.isDirectory(DEV_SHM))
        {
            return Set.of();
        }
        try (Stream<Path> entries = Files.list(DEV_SHM))
        {
            return entries.map(entry -> entry.getFileName().toString()).collect(Collectors.toSet());
        }
    }
}
