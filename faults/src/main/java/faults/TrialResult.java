package faults;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import mpjrun.MpjDevice;

/**
 * What one fault trial measured.
 *
 * @param device           the MPJ Express device the job ran on.
 * @param phase            the phase in which a rank was killed.
 * @param launcherStopped  whether the launcher was stopped (SIGSTOP) before the kill, so that only the
 *                         survivors themselves could end the job.
 * @param seed             the trial's own seed: {@code bin/faults --trial-seed} reruns this trial alone.
 * @param victim           the rank killed.
 * @param hung             whether the job failed to end within the hang limit (or, stopped, its launcher
 *                         did not end once continued).
 * @param timeToFailMs     from the kill to the job's end: every rank gone and, unless stopped, the launcher
 *                         exited; with the launcher stopped, until the last survivor is gone. -1 if hung.
 * @param saidDeadBySurvivors the ranks that output lines of the ranks (not of the launcher) say died.
 * @param saidDeadByLauncher  the ranks that lines of the launcher ({@code mpjrun: ...}) say died.
 * @param orphans          processes of the job still running after the launcher had exited.
 * @param leftFiles        files the job left in its {@code KUPL_SHM_DIR} (a directory of its own in
 *                         {@code /dev/shm}) and in its JVMs' temporary directory.
 * @param output           the job's output, for reports of failed trials.
 */
public record TrialResult(MpjDevice device, Phase phase, boolean launcherStopped, long seed, int victim,
    boolean hung, long timeToFailMs, Set<Integer> saidDeadBySurvivors, Set<Integer> saidDeadByLauncher, int orphans,
    List<String> leftFiles, String output)
{
    /** An engine exception at the head of a printed exception: the line (after a rank's prefix) starts with it, or with the thread that threw it. */
    private static final Pattern RAW_ENGINE_EXCEPTION =
        Pattern.compile("^(?:\\[[^\\]]*\\]\\s*)?(?:.*Exception in thread \"[^\"]*\" )?\\s*kupl\\.\\w+(?:Exception|Error)\\b");

    public TrialResult
    {
        saidDeadBySurvivors = Set.copyOf(saidDeadBySurvivors);
        saidDeadByLauncher = Set.copyOf(saidDeadByLauncher);
        leftFiles = List.copyOf(leftFiles);
    }

    /** Whether a surviving rank's error names the dead rank. */
    public boolean namedBySurvivors()
    {
        return saidDeadBySurvivors.contains(victim);
    }

    /**
     * The lines of the output where an exception of the engine ({@code kupl.*}) is what a program got: thrown
     * as it is, not as the cause ({@code Caused by:}) of MPJ Express's or {@code mpi.rma}'s exception.
     */
    public List<String> rawEngineExceptions()
    {
        return output.lines().filter(line -> RAW_ENGINE_EXCEPTION.matcher(line).find()).toList();
    }

    /** Whether the launcher names the dead rank. */
    public boolean namedByLauncher()
    {
        return saidDeadByLauncher.contains(victim);
    }

    /**
     * The ranks other than the victim that some line says died. Not a fault in itself: a survivor that gave up
     * has exited too by the time another looks, and may be the one it names (reported, not counted).
     */
    public Set<Integer> othersSaidDead()
    {
        final Set<Integer> others = new TreeSet<>(saidDeadBySurvivors);
        others.addAll(saidDeadByLauncher);
        others.remove(victim);
        return others;
    }

    /** How many files the job left. */
    public int files()
    {
        return leftFiles.size();
    }

    /** Whether the trial shows a fault: a hang, an orphan or a file left. */
    public boolean failed()
    {
        return hung || orphans > 0 || !leftFiles.isEmpty();
    }

    /** One line for progress and failure reports. */
    public String summary()
    {
        return device.deviceName() + " " + phase.cliName() + " launcher " + (launcherStopped ? "stopped" : "running") +
            " seed " + seed + " victim rank " + victim + ": " +
            (hung ? "HUNG" : "ended " + timeToFailMs + " ms after the kill") +
            (namedBySurvivors() ? ", survivors named the rank" : "") +
            (namedByLauncher() ? ", launcher named it" : "") +
            (othersSaidDead().isEmpty() ? "" : ", also said dead: ranks " + othersSaidDead()) +
            (orphans > 0 ? ", " + orphans + " ORPHANS" : "") +
            (leftFiles.isEmpty() ? "" : ", FILES LEFT: " + String.join(" ", leftFiles));
    }
}
