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
 * Small collectives through shared memory allocate nothing per steady-state call:
 * {@link CollectiveAllocationProgram} on 2 and 4 rank JVMs of -dev shm with the packaged agent counts each
 * rank thread's heap bytes around loops of {@code Barrier}, and of {@code Allreduce} and {@code Bcast} of 8
 * doubles. What the engine's waits allocate inside them (the engine's own matter) is counted apart and left
 * out; the MPJ Express entry adds nothing, since the agent's advice runs first.
 */
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShmCollectivesAllocationIT
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);
    private static Path agentJar;

    @BeforeAll
    static void findTheAgent()
    {
        agentJar = PackagedAgent.jar();
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void shouldAllocateNothingPerSteadyStateCall(final int ranks) throws Exception
    {
        final JobSpec spec = new JobSpec(ranks, MpjJobs.currentClassPath(), List.of("-javaagent:" + agentJar,
            "-Dkupl.coll.countEngineWaitAllocation=on"),
            CollectiveAllocationProgram.class.getName(), List.of(), false);
        final JobResult result = MpjJobs.run(MpjDevice.SHM, spec, JOB_TIMEOUT).requireSuccess();

        final List<String> lines = Stream.of(result.output().split("\n"))
            .filter(line -> line.contains(CollectiveAllocationProgram.BYTES_PER_ROUND)).sorted().toList();
        // The engine's share, for the record (its waits are the engine's matter, not asserted here).
        System.out.println(String.join("\n", result.output().lines()
            .filter(line -> line.contains(CollectiveAllocationProgram.WAIT_BYTES_PER_ROUND)).toList()));
        assertEquals(3 * ranks, lines.size(), result.output());
        assertTrue(result.output().contains("Allreduce result " + ranks * ranks / 2.0), result.output());
        final String zeros = "[0" + ", 0".repeat(CollectiveAllocationProgram.ROUNDS - 1) + "]";
        for (final String line : lines)
        {
            assertTrue(line.endsWith(CollectiveAllocationProgram.BYTES_PER_ROUND + zeros),
                "bytes allocated per round of " + CollectiveAllocationProgram.CALLS_PER_ROUND + " calls:\n" +
                String.join("\n", lines));
        }
    }
}
