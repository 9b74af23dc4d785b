package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher weaves MPJ Express's classes with the packaged agent once and gives them to its ranks instead of
 * the agent, in real jobs: through the job kit (as {@code bin/mpjrun -dev shm}) and through MPJ Express's own
 * starter with the agent in {@code JAVA_TOOL_OPTIONS}; with {@code KUPL_RANK_WOVEN_CLASSES=off} the ranks get
 * the agent again. In every case the collectives run through shared memory. The woven jar lives in a cache
 * directory of the test's own ({@code XDG_CACHE_HOME}).
 */
@Tag("slow")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WovenMpjClassesIT
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern PROBE = Pattern.compile(Pattern.quote(WovenClassesProbe.LINE) +
        "rank (\\d+) agent (true|false) handled (\\d+) sum (\\d+) intracomm (\\S+)");

    @TempDir
    static Path cacheHome;
    private static Path agentJar;

    /** What one rank said. */
    private record Probe(int rank, boolean agent, long handled, long sum, String intracomm)
    {
    }

    @BeforeAll
    static void findTheAgent()
    {
        agentJar = PackagedAgent.jar();
    }

    @Test
    void shouldGiveTheRanksWovenClassesInsteadOfTheAgentAndWeaveOnlyOnce() throws Exception
    {
        final List<Probe> first = probes(jobKit(Map.of()), 3);
        final Path woven = wovenJars().getFirst();
        final FileTime made = Files.getLastModifiedTime(woven);
        final JobResult secondJob = jobKit(Map.of());
        final List<Probe> second = probes(secondJob, 3);

        for (final Probe probe : Stream.concat(first.stream(), second.stream()).toList())
        {
            assertEquals(false, probe.agent(), probe.toString());
            assertEquals(woven.toString(), probe.intracomm(), "mpi.Intracomm from the woven jar: " + probe);
            assertTrue(probe.handled() >= 2, "Barrier and Allreduce through shared memory: " + probe);
            assertEquals(6, probe.sum(), probe.toString());
        }
        assertEquals(List.of(woven), wovenJars(), "one woven jar for this agent and mpj.jar");
        for (int rank = 0; rank < 3; rank++)
        {
            assertTrue(secondJob.output().contains(WovenClassesProbe.LINE + "rank " + rank + " finalize handled 0"),
                "MPI.Finalize's own last Barrier is MPJ Express's, its shared memory being gone: " +
                    secondJob.output());
        }
        assertEquals(made, Files.getLastModifiedTime(woven), "the second job reused it");
    }

    @Test
    void shouldGiveTheRanksTheAgentWhenTheWovenClassesAreSwitchedOff() throws Exception
    {
        for (final Probe probe : probes(jobKit(Map.of("KUPL_RANK_WOVEN_CLASSES", "off")), 3))
        {
            assertEquals(true, probe.agent(), probe.toString());
            assertTrue(probe.intracomm().endsWith("/mpj.jar"), "MPJ Express's own mpi.Intracomm: " + probe);
            assertTrue(probe.handled() >= 2, "the agent wove it at the rank's start: " + probe);
        }
    }

    @Test
    void shouldTakeTheAgentOutOfTheRanksJavaToolOptionsUnderMpjExpresssStarter() throws Exception
    {
        final Path mpjHome = MpjHome.prepare(MpjHome.defaultDirectory());
        final List<String> command = new ArrayList<>(List.of(MpjJobs.java().toString(), "-jar",
            mpjHome.resolve("lib/starter.jar").toString(), "-np", "2", "-dev", "shm", "-cp", testClasses(),
            WovenClassesProbe.class.getName()));
        final JobResult result = MpjJobs.runCommand(command, Map.of("MPJ_HOME", mpjHome.toString(),
            "PATH", MpjJobs.java().getParent() + File.pathSeparator + System.getenv("PATH"),
            "JAVA_TOOL_OPTIONS", "-javaagent:" + agentJar, "XDG_CACHE_HOME", cacheHome.toString()),
            Path.of(System.getProperty("user.dir")), JOB_TIMEOUT).requireSuccess();

        for (final Probe probe : probes(result, 2))
        {
            assertEquals(false, probe.agent(), probe.toString());
            assertTrue(probe.intracomm().contains("woven-mpj-"), "mpi.Intracomm from the woven jar: " + probe);
            assertTrue(probe.handled() >= 2, probe.toString());
        }
    }

    private static JobResult jobKit(final Map<String, String> settings) throws Exception
    {
        final Map<String, String> environment = new HashMap<>(settings);
        environment.put("XDG_CACHE_HOME", cacheHome.toString());
        final JobSpec spec = new JobSpec(3, MpjJobs.currentClassPath(), List.of(), WovenClassesProbe.class.getName(),
            List.of(), false);
        return MpjJobs.run(MpjDevice.SHM, spec, JOB_TIMEOUT, MpjHome.defaultDirectory(), environment)
            .requireSuccess();
    }

    /** Every rank's probe line, in rank order; there must be {@code ranks} of them. */
    private static List<Probe> probes(final JobResult result, final int ranks)
    {
        final List<Probe> probes = result.output().lines().map(PROBE::matcher).filter(Matcher::find)
            .map(m -> new Probe(Integer.parseInt(m.group(1)), Boolean.parseBoolean(m.group(2)),
                Long.parseLong(m.group(3)), Long.parseLong(m.group(4)), m.group(5)))
            .sorted(Comparator.comparingInt(Probe::rank)).toList();
        assertEquals(ranks, probes.size(), result.output());
        return probes;
    }

    private static List<Path> wovenJars() throws IOException
    {
        try (Stream<Path> files = Files.list(cacheHome.resolve("mpj-kupl")))
        {
            return files.filter(file -> file.getFileName().toString().startsWith("woven-mpj-") &&
                file.toString().endsWith(".jar")).toList();
        }
    }

    /** This module's test classes (the probe), as a user's -cp. */
    private static String testClasses()
    {
        return Path.of(System.getProperty("user.dir"), "target", "test-classes").toString();
    }
}
