package kupl;

import static kupl.FailureJobs.JOB_TIMEOUT;
import static kupl.FailureJobs.env;
import static kupl.FailureJobs.outputWith;
import static kupl.FailureJobs.start;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import kupl.bootstrap.LocalJob;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A segment of 2 GiB + 4 KiB: sizes and offsets are 64-bit end to end, so words beyond 2^31
 * written by one process are read by another after a fence. All pages are reserved at
 * allocation (fallocate), which takes about a second here; only a few are touched.
 */
@Tag("slow")
@Timeout(90)
class LargeSegmentTest
{
    private static final long LARGE_BYTES = (1L << 31) + 4096;

    private static Path shmDir;

    @BeforeAll
    static void createSegmentDirectory() throws IOException
    {
        final long usable = Files.getFileStore(Path.of("/dev/shm")).getUsableSpace();
        Assumptions.assumeTrue(usable > 2 * LARGE_BYTES, "/dev/shm has only " + usable + " bytes free; the test needs " +
            2 * LARGE_BYTES);
        shmDir = FailureJobs.createShmDir("kupl-large-");
    }

    @AfterAll
    static void removeSegmentDirectory() throws IOException
    {
        FailureJobs.removeShmDir(shmDir);
    }

    @ParameterizedTest(name = "KUPL_SHM_TYPE={0}")
    @ValueSource(strings = {"posix", "sls"})
    void shouldShareWordsBeyondTwoGibibytes(final String type) throws Exception
    {
        try (LocalJob job = start(LargeSegmentRank.class, 2, env(shmDir, "KUPL_SHM_TYPE", type),
            Long.toString(LARGE_BYTES)))
        {
            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            assertArrayEquals(new int[2], codes, job.outputs());
            for (int rank = 0; rank < 2; rank++)
            {
                assertTrue(outputWith(job, rank, "large window ok").contains("large window ok"), job.outputs());
            }
        }
    }
}
