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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPJ Express's collectives through shared memory ({@code xdev.shmdev.coll}) give what MPJ Express's own
 * algorithms give, bit for bit: {@link CollectivesProgram} on 1 to 4 rank JVMs of -dev shm with the packaged
 * agent, against the same program on MPJ Express's multicore device (no agent).
 */
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShmCollectivesIT
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
    void shouldGiveMpjExpressResultsBitForBitOnEveryRank(final int ranks) throws Exception
    {
        final List<String> shm = results(run(MpjDevice.SHM, ranks, List.of("-javaagent:" + agentJar)));
        final List<String> mpj = results(run(MpjDevice.MULTICORE, ranks, List.of()));

        final List<String> expected = mpj.stream().filter(line -> !line.contains(CollectivesProgram.HANDLED)).toList();
        final List<String> actual = shm.stream().filter(line -> !line.contains(CollectivesProgram.HANDLED)).toList();
        assertEquals(List.of(), actual.stream().filter(line -> !expected.contains(line)).toList(),
            "lines of -dev shm that MPJ Express's multicore device did not print");
        assertEquals(expected, actual);
        // The shared-memory path really ran on -dev shm, and not on multicore.
        assertTrue(shm.stream().filter(line -> line.contains(CollectivesProgram.HANDLED))
            .allMatch(line -> !line.endsWith(" 0")), String.join("\n", shm));
        assertTrue(mpj.stream().filter(line -> line.contains(CollectivesProgram.HANDLED))
            .allMatch(line -> line.endsWith(" 0")), String.join("\n", mpj));
    }

    private static JobResult run(final MpjDevice device, final int ranks, final List<String> jvmArgs)
        throws Exception
    {
        final JobSpec spec = new JobSpec(ranks, MpjJobs.currentClassPath(), jvmArgs,
            CollectivesProgram.class.getName(), List.of(), false);
        return MpjJobs.run(device, spec, JOB_TIMEOUT).requireSuccess();
    }

    /** The program's result lines, sorted (the multicore device's threads print interleaved). */
    private static List<String> results(final JobResult result)
    {
        final List<String> lines = Stream.of(result.output().split("\n")).filter(line -> line.startsWith("rank "))
            .sorted().toList();
        assertTrue(lines.size() > 10, result.output());
        return lines;
    }
}
