package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sends and receives of arrays without MPJ Express's packing ({@code xdev.shmdev.ArrayMessages}) give what MPJ
 * Express gives: {@link PointToPointProgram} on 1 to 4 rank JVMs of -dev shm with the packaged agent, the direct
 * path on and off ({@code -Dkupl.p2p=off}), against the same program on MPJ Express's multicore device; and a
 * truncated or mistyped receive fails on both paths of -dev shm; and the device suite's own programs give
 * MPJ Express's results on both paths.
 */
@Tag("slow")
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class PointToPointIT
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);
    private static Path agentJar;

    @BeforeAll
    static void findTheAgent()
    {
        agentJar = PackagedAgent.jar();
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    void shouldReceiveWhatMpjExpressReceivesOnBothPaths(final int ranks) throws Exception
    {
        final List<String> direct = results(run(MpjDevice.SHM, ranks, List.of("-javaagent:" + agentJar), List.of()));
        final List<String> packed = results(run(MpjDevice.SHM, ranks, List.of("-javaagent:" + agentJar,
            "-Dkupl.p2p=off"), List.of()));
        final List<String> mpj = results(run(MpjDevice.MULTICORE, ranks, List.of(), List.of()));

        assertEquals(withoutCounts(mpj), withoutCounts(direct));
        assertEquals(withoutCounts(mpj), withoutCounts(packed));
        assertTrue(counts(direct).stream().noneMatch(line -> line.endsWith(" 0")), String.join("\n", direct));
        assertTrue(counts(packed).stream().allMatch(line -> line.endsWith(" 0")), String.join("\n", packed));
    }

    /** The device suite's programs ({@code xdev.shmdev.programs.Programs}: derived types, objects, Probe, ...). */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void shouldRunTheDeviceSuitesProgramsAlikeOnBothPaths(final int ranks) throws Exception
    {
        final String programs = "xdev.shmdev.programs.Programs";
        final List<String> direct = resultLines(MpjJobs.run(MpjDevice.SHM, new JobSpec(ranks,
            MpjJobs.currentClassPath(), List.of("-javaagent:" + agentJar), programs, List.of(), false), JOB_TIMEOUT)
            .requireSuccess());
        final List<String> packed = resultLines(MpjJobs.run(MpjDevice.SHM, new JobSpec(ranks,
            MpjJobs.currentClassPath(), List.of("-javaagent:" + agentJar, "-Dkupl.p2p=off"), programs, List.of(),
            false), JOB_TIMEOUT).requireSuccess());
        final List<String> mpj = resultLines(MpjJobs.run(MpjDevice.MULTICORE, new JobSpec(ranks,
            MpjJobs.currentClassPath(), List.of(), programs, List.of(), false), JOB_TIMEOUT).requireSuccess());

        assertTrue(mpj.size() >= 9 * ranks, String.join("\n", mpj));
        assertEquals(mpj, direct);
        assertEquals(mpj, packed);
    }

    private static List<String> resultLines(final JobResult result)
    {
        return Stream.of(result.output().split("\n")).filter(line -> line.startsWith("RESULT")).sorted().toList();
    }

    @Test
    void shouldFailATruncatedAndAMistypedReceiveOnBothPaths() throws Exception
    {
        for (final List<String> options : List.<List<String>>of(List.of(), List.of("-Dkupl.p2p=off")))
        {
            final List<String> jvm = Stream.concat(Stream.of("-javaagent:" + agentJar), options.stream())
                .map(String::valueOf).toList();
            // MPJ Express prints the exceptions its packed receives throw, so the job is judged failed: not required.
            final JobSpec spec = new JobSpec(2, MpjJobs.currentClassPath(), jvm, PointToPointProgram.class.getName(),
                List.of("errors"), false);
            final List<String> lines = results(MpjJobs.run(MpjDevice.SHM, spec, JOB_TIMEOUT));
            final String output = String.join("\n", lines) + "\n(options " + options + ")";
            assertTrue(lines.stream().anyMatch(line -> line.startsWith("rank 1 truncated: failed:") &&
                line.contains("truncated")), output);
            assertTrue(lines.stream().anyMatch(line -> line.startsWith("rank 1 mistyped: failed:")), output);
        }
    }

    private static JobResult run(final MpjDevice device, final int ranks, final List<String> jvmArgs,
        final List<String> args) throws Exception
    {
        final JobSpec spec = new JobSpec(ranks, MpjJobs.currentClassPath(), jvmArgs,
            PointToPointProgram.class.getName(), args, false);
        return MpjJobs.run(device, spec, JOB_TIMEOUT).requireSuccess();
    }

    private static List<String> results(final JobResult result)
    {
        final List<String> lines = Stream.of(result.output().split("\n")).filter(line -> line.startsWith("rank "))
            .sorted().toList();
        assertTrue(!lines.isEmpty(), result.output());
        return lines;
    }

    private static List<String> withoutCounts(final List<String> lines)
    {
        return lines.stream().filter(line -> !line.contains(PointToPointProgram.HANDLED)).toList();
    }

    private static List<String> counts(final List<String> lines)
    {
        return lines.stream().filter(line -> line.contains(PointToPointProgram.HANDLED)).toList();
    }
}
