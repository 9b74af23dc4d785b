package kupl;

import static kupl.FailureJobs.JOB_TIMEOUT;
import static kupl.FailureJobs.allRanks;
import static kupl.FailureJobs.awaitOutput;
import static kupl.FailureJobs.env;
import static kupl.FailureJobs.listing;
import static kupl.FailureJobs.start;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import kupl.FailureJobs.PrivateTmpfs;
import kupl.bootstrap.LocalJob;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A comm keeps the memory of its last freed window for the next window that fits
 * ({@link WindowMemoryCache}), between real processes ({@link WindowReuseRank}): a smaller
 * window reuses it with one exchange (none when the caller agrees on the arguments), starts
 * zeroed and works, the freed window's segments throw; a larger one gets new memory; kept memory
 * is given back before a window that does not fit takes its own, so a small tmpfs still refuses
 * a too-large window at allocation, never with a SIGBUS; and a {@code kill -9} of a process
 * holding kept memory leaves nothing behind.
 */
@Tag("slow")
@Timeout(120)
class WindowReuseTest
{
    private static final int RANKS = 3;
    private static final long MIB = 1L << 20;

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

    @ParameterizedTest(name = "KUPL_SHM_TYPE={0}, contiguous={1}")
    @CsvSource({"posix, 0", "posix, 1", "sls, 0"})
    void shouldReuseTheLastWindowsMemoryForAWindowThatFits(final String type, final String contiguous)
        throws Exception
    {
        final Jobs.Finished job = Jobs.run(WindowReuseRank.class, RANKS, Map.of("KUPL_SHM_TYPE", type), "sizes",
            contiguous);

        job.assertAllPrinted("reuse ok");
    }

    @ParameterizedTest(name = "KUPL_SHM_TYPE={0}, contiguous={1}")
    @CsvSource({"posix, 0", "sls, 0", "posix, 1"})
    void shouldGiveKeptMemoryBackBeforeALargerWindowAndStillRefuseOneThatDoesNotFit(final String type,
        final String contiguous) throws Exception
    {
        // 3 x 4 MiB kept, then 3 x 5 MiB: fits the 16 MiB tmpfs only without the kept 12 MiB; 3 x 7 MiB never fits.
        try (LocalJob job = start(WindowReuseRank.class, RANKS, env(tmpfs.dir(), "KUPL_SHM_TYPE", type), "tmpfs",
            contiguous, Long.toString(4 * MIB), Long.toString(5 * MIB), Long.toString(7 * MIB)))
        {
            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            final String outputs = job.outputs();
            assertFalse(outputs.contains("InternalError") || outputs.contains("SIGBUS"), outputs);
            assertArrayEquals(new int[RANKS], codes, outputs);
            for (int rank = 0; rank < RANKS; rank++)
            {
                final String output = job.output(rank);
                assertTrue(output.contains("replaced ok"), "rank " + rank + "\n" + outputs);
                assertTrue(output.contains("refused: ") && output.contains("not enough shared memory"),
                    "rank " + rank + " should refuse the window at allocation\n" + outputs);
                assertTrue(output.contains("small again ok"), "rank " + rank + "\n" + outputs);
            }
            assertEquals(List.of(), listing(tmpfs.dir()), outputs);
            assertEquals(0, tmpfs.usedBytes(), "every page should be given back once the processes have exited\n" +
                outputs);
        }
    }

    @ParameterizedTest(name = "KUPL_SHM_TYPE={0}")
    @CsvSource({"posix", "sls"})
    void shouldLeaveNothingWhenAProcessHoldingKeptMemoryIsKilled(final String type) throws Exception
    {
        final int victim = 1;
        try (LocalJob job = start(WindowReuseRank.class, RANKS, env(tmpfs.dir(), "KUPL_SHM_TYPE", type), "hold", "0",
            Long.toString(MIB)))
        {
            awaitOutput(job, allRanks(job), "kept");
            final long used = tmpfs.usedBytes();
            assertTrue(used >= RANKS * MIB, "the kept memory should stay reserved, but the tmpfs uses " + used +
                " bytes\n" + job.outputs());
            job.kill(victim);
            for (final int survivor : FailureJobs.ranksBut(job, victim))
            {
                FailureJobs.sendLine(job, survivor, "go");
            }

            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            assertEquals(137, codes[victim], job.outputs());
            assertEquals(List.of(), listing(tmpfs.dir()), job.outputs());
            long left = tmpfs.usedBytes();
            for (int i = 0; i < 100 && left != 0; i++)
            {
                Thread.sleep(10);
                left = tmpfs.usedBytes();
            }
            assertEquals(0, left, "the tmpfs should be empty once every process has exited\n" + job.outputs());
        }
    }
}
