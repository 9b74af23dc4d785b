package kupl;

import static kupl.FailureJobs.JOB_TIMEOUT;
import static kupl.FailureJobs.env;
import static kupl.FailureJobs.listing;
import static kupl.FailureJobs.outputWith;
import static kupl.FailureJobs.start;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import kupl.FailureJobs.PrivateTmpfs;
import kupl.bootstrap.LocalJob;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A window larger than the file system of {@code KUPL_SHM_DIR} (64 MiB per process on a
 * 16 MiB tmpfs) fails at allocation on every process, with a message naming the directory
 * and its free space: no SIGBUS (an {@code InternalError} in Java) at a later touch, no hang.
 * The comm stays usable: a small window works right after, also when some processes' objects
 * fitted and had to be given back.
 */
@Timeout(60)
class SmallTmpfsTest
{
    private static final int RANKS = 3;
    private static final long BIG_BYTES = 64L << 20;
    private static final long PARTLY_FITTING_BYTES = 7L << 20;
    private static final long SMALL_BYTES = 1L << 20;
    private static final Pattern FREE_SPACE = Pattern.compile("which has [0-9.]+ (B|KiB|MiB) free");

    private static PrivateTmpfs tmpfs;

    @BeforeAll
    static void mountSmallTmpfs() throws IOException, InterruptedException
    {
        tmpfs = PrivateTmpfs.mount("16m");
    }

    @AfterAll
    static void unmountSmallTmpfs() throws IOException
    {
        if (tmpfs != null)
        {
            tmpfs.close();
        }
    }

    static Stream<Arguments> shouldRefuseAWindowLargerThanTheDirectoryOnEveryProcess()
    {
        return Stream.of(
            Arguments.of("posix", BIG_BYTES),
            Arguments.of("sls", BIG_BYTES),
            // 3 x 7 MiB: some processes' objects fit, another's does not; those that fit must be
            // given back at once, or the small window after it would not fit either.
            Arguments.of("posix", PARTLY_FITTING_BYTES));
    }

    @ParameterizedTest(name = "KUPL_SHM_TYPE={0}, {1} bytes per process")
    @MethodSource
    void shouldRefuseAWindowLargerThanTheDirectoryOnEveryProcess(final String type, final long bigBytes)
        throws Exception
    {
        try (LocalJob job = start(SmallTmpfsRank.class, RANKS, env(tmpfs.dir(), "KUPL_SHM_TYPE", type),
            Long.toString(bigBytes), Long.toString(SMALL_BYTES)))
        {
            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            for (int rank = 0; rank < RANKS; rank++)
            {
                outputWith(job, rank, "small window ok");
            }
            final String outputs = job.outputs();
            assertFalse(outputs.contains("InternalError") || outputs.contains("SIGBUS"), outputs);
            assertArrayEquals(new int[RANKS], codes, "every process should refuse the big window and use the small one\n" +
                outputs);
            for (int rank = 0; rank < RANKS; rank++)
            {
                final String refusal = outputWith(job, rank, "big window refused: ").lines().filter(l -> l.startsWith("big window refused: "))
                    .findFirst().orElse("");
                assertTrue(refusal.contains("not enough shared memory"), "rank " + rank + "\n" + outputs);
                assertTrue(refusal.contains("KUPL_SHM_DIR=" + tmpfs.dir()), "the message should name the directory\n" +
                    outputs);
                assertTrue(FREE_SPACE.matcher(refusal).find(), "the message should give the free space\n" + outputs);
                assertTrue(job.output(rank).contains("small window ok"), "rank " + rank + "\n" + outputs);
            }
            assertEquals(List.of(), listing(tmpfs.dir()), outputs);
            assertEquals(0, tmpfs.usedBytes(), "the refused reservations should be given back\n" + outputs);
        }
    }
}
