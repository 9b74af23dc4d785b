package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjJobs;
import mpjrun.ShmJob;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import xdev.shmdev.programs.Programs;

/**
 * Ordinary mpiJava 1.2 programs ({@link Programs}: ping-pong, ring, collectives, Sendrecv,
 * wildcards and probe, Ssend, Waitany/Testall, Split, derived datatypes and objects) on 1 to 5
 * processes through {@link ShmJob}, and the same programs in MPJ Express's multicore mode:
 * every rank's result must be the same on both devices.
 */
@Tag("slow")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ShmProgramsTest
{
    private static final Path TEST_CLASSES = Path.of(ShmProgramsTest.class.getProtectionDomain().getCodeSource()
        .getLocation().getPath());

    @ParameterizedTest(name = "{0} processes")
    @ValueSource(ints = {1, 2, 3, 4, 5})
    void programsGiveTheSameResultsAsOnMulticore(final int processes) throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ShmJob.run(new JobSpec(processes, List.of(TEST_CLASSES.toString()), List.of(),
            Programs.class.getName(), List.of(), false), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        final String shm = out.toString(StandardCharsets.UTF_8);
        final String all = shm + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, all);
        final List<String> shmResults = results(shm);
        assertEquals(9 * processes, shmResults.size(), all);
        assertTrue(shmResults.contains("RESULT pingpong 0: value=" + (processes > 1 ? 1000 : 0)), all);
        if (processes > 1)
        {
            assertTrue(shmResults.contains("RESULT ssend 0: pending-before-receive=true"), all);
        }
        final String multicore = runMulticore(processes);
        assertEquals(multicore.lines().filter(line -> line.startsWith("RESULT")).sorted().toList(), shmResults,
            "shm and multicore disagree\nshm:\n" + all + "\nmulticore:\n" + multicore);
    }

    private static List<String> results(final String output)
    {
        return output.lines().filter(line -> line.startsWith("RESULT")).sorted().toList();
    }

    /** The same program in MPJ Express's multicore mode, through the job kit. */
    private static String runMulticore(final int processes) throws IOException, InterruptedException
    {
        final JobResult result = MpjJobs.run(MpjDevice.MULTICORE, new JobSpec(processes,
            List.of(TEST_CLASSES.toString()), List.of(), Programs.class.getName(), List.of(), false),
            Duration.ofSeconds(60));
        return result.requireSuccess().output();
    }
}
