package faults;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import mpjrun.MpjDevice;
import mpjrun.MpjJobs;

/**
 * The fault-injection suite behind {@code bin/faults}: for each device, phase and launcher state,
 * runs trials in which one rank of a real MPJ Express job is killed at a random moment inside the
 * phase ({@link FaultTrial}), and prints a Markdown table of how the jobs ended: trials, hangs,
 * time from the kill to the job's end, whether the dead rank was named, orphan processes and files
 * left. Progress and failed trials go to standard error.
 *
 * <p>Every trial has a seed of its own, derived from {@code --seed}: the victim and the moment are
 * drawn from it, and {@code --trial-seed} reruns one trial alone (with one device, phase and
 * launcher state). Exit status 0 if no trial hung, left an orphan or a file; 1 otherwise; 2 for a
 * bad command line.
 */
public final class FaultInjection
{
    static final String USAGE = """
        usage: bin/faults [--seed N] [--trials N] [--device shm,niodev,multicore]
                          [--phase allocation,fence,large-message,lock-epoch,free,collectives,passive-shared,
                                   passive-allocate,passive-create] [--launcher running,stopped]
                          [--np N] [--hang-limit-s N] [--trial-seed N]
          --seed N          draws every trial's victim and moment (default 1)
          --trials N        trials per device, phase and launcher state (default 3)
          --launcher        running: the launcher sees the death; stopped: SIGSTOP before the kill (default both)
          --np N            ranks per job (default 3)
          --hang-limit-s N  a job not ended this long after the kill counts as a hang (default 30)
          --trial-seed N    rerun the one trial of that seed (give one device, phase and launcher state)""";

    private FaultInjection()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Settings settings;
        try
        {
            settings = Settings.parse(args);
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println("faults: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        final List<TrialResult> results = run(settings, System.out, System.err);
        System.exit(results.stream().anyMatch(TrialResult::failed) ? 1 : 0);
    }

    /** Runs every trial {@code settings} asks for, prints the table to {@code out}, and returns the trials. */
    public static List<TrialResult> run(final Settings settings, final PrintStream out, final PrintStream progress)
        throws IOException, InterruptedException
    {
        final List<TrialResult> results = new ArrayList<>();
        final long startNs = System.nanoTime();
        for (final MpjDevice device : settings.devices())
        {
            if (!MpjJobs.isAvailable(device))
            {
                progress.println("faults: skipping " + device.deviceName() + ": MPJ Express is not installed");
                continue;
            }
            for (final Phase phase : settings.phases())
            {
                for (final boolean stopped : settings.launcherStates())
                {
                    for (int trial = 0; trial < settings.trials(); trial++)
                    {
                        final long seed = settings.trialSeed() != null ? settings.trialSeed() :
                            trialSeed(settings.seed(), device, phase, stopped, trial);
                        final TrialResult result = new FaultTrial(device, phase, stopped, settings.processes(), seed,
                            settings.hangLimitSeconds() * 1000L).run();
                        progress.println("faults: " + result.summary());
                        if (result.failed())
                        {
                            progress.println(result.output().indent(4));
                        }
                        results.add(result);
                    }
                }
            }
        }
        out.print(FaultTable.format(results));
        out.printf(Locale.ROOT, "%n%d trials, %d s; %d ranks per job, a hang is no end within %d s of the kill.%n",
            results.size(), (System.nanoTime() - startNs) / 1_000_000_000L, settings.processes(),
            settings.hangLimitSeconds());
        final List<TrialResult> failed = results.stream().filter(TrialResult::failed).toList();
        if (!failed.isEmpty())
        {
            out.println();
            out.println("Failed trials (rerun one with --device D --phase P --launcher L --trial-seed S):");
            failed.forEach(result -> out.println("- " + result.summary()));
        }
        return results;
    }

    /**
     * A trial's seed from the run's: distinct for every device, phase, launcher state and trial, and the
     * same whatever else the run covers, so that a subset reruns the full run's trials.
     */
    static long trialSeed(final long seed, final MpjDevice device, final Phase phase, final boolean stopped,
        final int trial)
    {
        return seed * 100_000 + ((device.ordinal() * 10L + phase.ordinal()) * 2 + (stopped ? 1 : 0)) * 1_000 + trial;
    }

    /**
     * What to run.
     *
     * @param trialSeed the seed of one trial to rerun alone, or null.
     */
    public record Settings(long seed, int trials, List<MpjDevice> devices, List<Phase> phases,
        List<Boolean> launcherStates, int processes, int hangLimitSeconds, Long trialSeed)
    {
        public Settings
        {
            devices = List.copyOf(devices);
            phases = List.copyOf(phases);
            launcherStates = List.copyOf(launcherStates);
            requireAtLeast("trials", trials, 1);
            requireAtLeast("np", processes, 2);
            requireAtLeast("hang-limit-s", hangLimitSeconds, 1);
            if (trialSeed != null && (devices.size() != 1 || phases.size() != 1 || launcherStates.size() != 1 ||
                trials != 1))
            {
                throw new IllegalArgumentException("--trial-seed reruns one trial: give one --device, one --phase, " +
                    "one --launcher and no --trials");
            }
        }

        /** Parses {@code bin/faults}' command line ({@link #USAGE}). */
        public static Settings parse(final String... args)
        {
            long seed = 1;
            int trials = 3;
            List<MpjDevice> devices = List.of(MpjDevice.SHM, MpjDevice.NIODEV, MpjDevice.MULTICORE);
            List<Phase> phases = List.of(Phase.values());
            List<Boolean> launcherStates = List.of(false, true);
            int processes = 3;
            int hangLimitSeconds = 30;
            Long trialSeed = null;
            boolean trialsGiven = false;
            for (int i = 0; i < args.length; i++)
            {
                final String option = args[i];
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException(option.startsWith("--") ? option + " needs a value" :
                        "unknown argument " + option);
                }
                final String value = args[++i];
                switch (option)
                {
                    case "--seed" -> seed = number(option, value);
                    case "--trials" ->
                    {
                        trials = (int) number(option, value);
                        trialsGiven = true;
                    }
                    case "--device" -> devices = list(value, MpjDevice::named);
                    case "--phase" -> phases = list(value, Phase::named);
                    case "--launcher" -> launcherStates = list(value, Settings::launcherState);
                    case "--np" -> processes = (int) number(option, value);
                    case "--hang-limit-s" -> hangLimitSeconds = (int) number(option, value);
                    case "--trial-seed" -> trialSeed = number(option, value);
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (trialSeed != null && !trialsGiven)
            {
                trials = 1;
            }
            return new Settings(seed, trials, devices, phases, launcherStates, processes, hangLimitSeconds, trialSeed);
        }

        private static boolean launcherState(final String name)
        {
            return switch (name)
            {
                case "running" -> false;
                case "stopped" -> true;
                default -> throw new IllegalArgumentException("launcher=" + name + " is not one of running, stopped");
            };
        }

        private static long number(final String option, final String value)
        {
            try
            {
                return Long.parseLong(value);
            }
            catch (final NumberFormatException e)
            {
                throw new IllegalArgumentException(option + "=" + value + " is not a whole number");
            }
        }

        private static <T> List<T> list(final String value, final Function<String, T> parse)
        {
            final List<T> items = Arrays.stream(value.split(",")).map(String::strip).map(parse).distinct().toList();
            if (items.isEmpty())
            {
                throw new IllegalArgumentException("an empty list: " + value);
            }
            return items;
        }

        private static void requireAtLeast(final String name, final long value, final long least)
        {
            if (value < least)
            {
                throw new IllegalArgumentException("--" + name + "=" + value + " must be at least " + least);
            }
        }
    }
}
