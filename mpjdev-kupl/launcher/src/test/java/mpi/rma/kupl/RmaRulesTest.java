package mpi.rma.kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every rule of {@code mpi.rma} shared windows ({@link RmaRulesProgram}) in real MPJ Express
 * jobs: 1-4 ranks as threads of one JVM (multicore), and processes on this node (niodev, with a
 * daemon of the test's own), under both fence algorithms and both shm types.
 */
@Tag("slow")
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class RmaRulesTest
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(120);
    private static final int CHECKS = 21;

    @ParameterizedTest(name = "{0}, {1} ranks, fence algorithm {2}, {3}")
    @CsvSource({
        "MULTICORE, 1, 1, posix", "MULTICORE, 2, 2, sls", "MULTICORE, 3, 1, sls", "MULTICORE, 4, 2, posix",
        "MULTICORE, 4, 1, posix", "MULTICORE, 2, 2, posix", "NIODEV, 2, 2, posix", "NIODEV, 4, 1, sls",
        "SHM, 1, 2, posix", "SHM, 3, 1, sls", "SHM, 4, 2, posix"})
    void shouldKeepEveryRule(final MpjDevice device, final int ranks, final int fenceAlgorithm, final String shmType,
        @TempDir(factory = ShmTempDirs.class) final Path shmDir) throws Exception
    {
        final JobSpec spec = new JobSpec(ranks, MpjJobs.currentClassPath(), List.of(), RmaRulesProgram.class.getName(),
            List.of(), false);
        final JobResult result = MpjJobs.run(device, spec, JOB_TIMEOUT, MpjHome.defaultDirectory(),
            Map.of("KUPL_SHM_FENCE_ALGORITHM", Integer.toString(fenceAlgorithm), "KUPL_SHM_TYPE", shmType,
                "KUPL_SHM_DIR", shmDir.toString()));

        final String output = result.output();
        assertEquals(List.of(), output.lines().filter(line -> line.contains(" FAILED: ")).toList(), output);
        assertEquals(ranks * CHECKS, output.lines().filter(line -> line.startsWith("CHECK ") && line.endsWith(" ok"))
            .count(), () -> "every rank should pass every check\n" + output);
        for (int rank = 0; rank < ranks; rank++)
        {
            final String done = "DONE rank " + rank + " failures 0";
            assertTrue(output.lines().anyMatch(done::equals), () -> "no '" + done + "' in\n" + output);
        }
        assertEquals(0, result.exitCode(), result::summary);
        assertEquals(List.of(), files(shmDir), "files left in the job's KUPL_SHM_DIR");
    }

    /** The job's own KUPL_SHM_DIR: all of /dev/shm would also show other jobs' files. */
    static final class ShmTempDirs implements TempDirFactory
    {
        @Override
        public Path createTempDirectory(final AnnotatedElementContext element, final ExtensionContext context)
            throws IOException
        {
            return Files.createTempDirectory(Path.of("/dev/shm"), "kupl-rma-rules");
        }
    }

    private static List<String> files(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map(Path::toString).sorted().toList();
        }
    }
}
