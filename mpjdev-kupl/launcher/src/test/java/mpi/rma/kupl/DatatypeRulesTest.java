package mpi.rma.kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Derived datatypes on shared windows ({@link DatatypeRulesProgram}) in real MPJ Express jobs:
 * ranks as threads of one JVM (multicore) and as processes (niodev, shm).
 */
@Tag("slow")
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class DatatypeRulesTest
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);

    @ParameterizedTest(name = "{0}, {1} ranks")
    @CsvSource({"MULTICORE, 3", "NIODEV, 2", "SHM, 4", "SHM, 1"})
    void shouldMoveDerivedDatatypes(final MpjDevice device, final int ranks,
        @TempDir(factory = RmaRulesTest.ShmTempDirs.class) final Path shmDir) throws Exception
    {
        final JobSpec spec = new JobSpec(ranks, MpjJobs.currentClassPath(), List.of(),
            DatatypeRulesProgram.class.getName(), List.of(), false);
        final JobResult result = MpjJobs.run(device, spec, JOB_TIMEOUT, MpjHome.defaultDirectory(),
            Map.of("KUPL_SHM_DIR", shmDir.toString()));

        final String output = result.output();
        assertEquals(List.of(), output.lines().filter(line -> line.contains(" FAILED: ")).toList(), output);
        for (final String check : DatatypeRulesProgram.CHECKS)
        {
            assertEquals(ranks, output.lines().filter(("CHECK " + check + " ok")::equals).count(),
                () -> "every rank should pass " + check + "\n" + output);
        }
        for (int rank = 0; rank < ranks; rank++)
        {
            final String done = "DONE rank " + rank + " failures 0";
            assertTrue(output.lines().anyMatch(done::equals), () -> "no '" + done + "' in\n" + output);
        }
        assertEquals(0, result.exitCode(), result::summary);
    }
}
