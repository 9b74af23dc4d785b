package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import xdev.shmdev.programs.ReportBinding;

/**
 * {@code KUPL_SHM_BIND} with real rank JVMs started by a launcher process: by default each rank's main thread
 * runs on a CPU of its own after {@code MPI.Init} (the i-th of the launcher's, for rank i), {@code none} leaves
 * them all, {@code auto} leaves them all when the ranks outnumber the CPUs, and {@code cpu} then ends the job
 * with a message that says what to change. Ranks move messages either way, and leave no shared memory.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ShmBindingTest
{
    private static final String TEST_CLASSES = Path.of(ShmBindingTest.class.getProtectionDomain().getCodeSource()
        .getLocation().getPath()).toString();
    private static final Pattern CPUS = Pattern.compile("cpus (\\d+) (\\S+)");

    /** A private directory for the ranks' shared memory: whatever they leave behind would show here. */
    @RegisterExtension
    final PrivateShmDirectory shm = new PrivateShmDirectory("kupl-binding-test");

    private record Job(int status, String output, Map<Integer, String> cpusByRank)
    {
    }

    @Test
    void byDefaultEachRankRunsOnTheCpuOfItsRank() throws Exception
    {
        final List<Integer> allowed = cpus(launcherCpus());
        assumeTrue(allowed.size() >= 2 && Runtime.getRuntime().availableProcessors() >= 2,
            "needs two CPUs, the tests may use " + launcherCpus());

        final Job job = run(2, null);

        assertEquals(0, job.status(), job.output());
        assertEquals(Map.of(0, allowed.get(0).toString(), 1, allowed.get(1).toString()), job.cpusByRank(),
            job.output());
    }

    @Test
    void noneLeavesEveryRankEveryCpu() throws Exception
    {
        final Job job = run(2, "none");

        assertEquals(0, job.status(), job.output());
        assertEquals(Map.of(0, launcherCpus(), 1, launcherCpus()), job.cpusByRank(), job.output());
    }

    @Test
    void autoLeavesRanksThatOutnumberTheCpusFreeAndCpuRefusesThem() throws Exception
    {
        final int ranks = Runtime.getRuntime().availableProcessors() + 1;
        assumeTrue(ranks <= 5, "a job of more ranks than CPUs is too large here: " + ranks);

        final Job auto = run(ranks, "auto");
        assertEquals(0, auto.status(), auto.output());
        assertEquals(ranks, auto.cpusByRank().size(), auto.output());
        auto.cpusByRank().values().forEach(cpus -> assertEquals(launcherCpus(), cpus, auto.output()));

        final Job cpu = run(ranks, "cpu");
        assertEquals(1, cpu.status(), cpu.output());
        assertTrue(cpu.output().contains("KUPL_SHM_BIND=cpu needs a CPU for each rank: " + ranks +
            " ranks on this node"), cpu.output());
        assertTrue(cpu.output().contains("start fewer ranks, or set KUPL_SHM_BIND=auto or none"), cpu.output());
        assertEquals(Map.of(), cpu.cpusByRank(), "a rank went on after it could not be bound:\n" + cpu.output());
    }

    /** Runs {@link ReportBinding} on {@code ranks} with {@code KUPL_SHM_BIND=bind} (unset where null). */
    private Job run(final int ranks, final String bind) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), LauncherMain.class.getName(), Integer.toString(ranks),
            TEST_CLASSES, ReportBinding.class.getName()));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("KUPL_SHM_DIR", shm.path().toString());
        builder.environment().remove("KUPL_SHM_BIND");
        if (bind != null)
        {
            builder.environment().put("KUPL_SHM_BIND", bind);
        }
        final Process launcher = builder.start();
        final String output = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(launcher.waitFor(60, TimeUnit.SECONDS), output);
        final Map<Integer, String> cpusByRank = new TreeMap<>();
        final Matcher matcher = CPUS.matcher(output);
        while (matcher.find())
        {
            cpusByRank.put(Integer.parseInt(matcher.group(1)), matcher.group(2));
        }
        return new Job(launcher.exitValue(), output, cpusByRank);
    }

    /** The CPUs this test's thread may run on, as the kernel lists them ({@code 0-1}): what a launcher passes on. */
    private static String launcherCpus()
    {
        try
        {
            return ReportBinding.allowedCpusOfThisThread();
        }
        catch (final IOException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /** The CPUs of one of the kernel's lists ({@code 0-3,8}), in order. */
    private static List<Integer> cpus(final String list)
    {
        final List<Integer> cpus = new ArrayList<>();
        for (final String range : list.split(","))
        {
            final String[] ends = range.split("-");
            for (int cpu = Integer.parseInt(ends[0]); cpu <= Integer.parseInt(ends[ends.length - 1]); cpu++)
            {
                cpus.add(cpu);
            }
        }
        return cpus;
    }
}
