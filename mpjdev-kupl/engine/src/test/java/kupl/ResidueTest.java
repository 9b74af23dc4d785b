package kupl;

import static kupl.FailureJobs.JOB_TIMEOUT;
import static kupl.FailureJobs.KUPL_ERROR_EXIT;
import static kupl.FailureJobs.allRanks;
import static kupl.FailureJobs.awaitOutput;
import static kupl.FailureJobs.env;
import static kupl.FailureJobs.listing;
import static kupl.FailureJobs.mappingsOf;
import static kupl.FailureJobs.outputWith;
import static kupl.FailureJobs.ranksBut;
import static kupl.FailureJobs.start;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import kupl.FailureJobs.DirectoryWatch;
import kupl.FailureJobs.PrivateTmpfs;
import kupl.bootstrap.LocalJob;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nothing is left behind, however a job ends: no file of the engine ever appears in
 * {@code KUPL_SHM_DIR} (its objects are unnamed), and once every process has exited the
 * memory is back (the used space of a private tmpfs returns to zero). Normal exit, an
 * exception with a window allocated, and SIGKILL before allocation, right after it and in a
 * fence loop, for both shm types.
 */
@Tag("slow")
@Timeout(120)
class ResidueTest
{
    private static final int RANKS = 3;
    private static final long SEGMENT_BYTES = 1L << 20;

    private static PrivateTmpfs tmpfs;

    @BeforeAll
    static void mountPrivateTmpfs() throws IOException, InterruptedException
    {
        tmpfs = PrivateTmpfs.mount("64m");
    }

    @AfterAll
    static void unmountPrivateTmpfs() throws IOException
    {
        if (tmpfs != null)
        {
            tmpfs.close();
        }
    }

    @ParameterizedTest(name = "KUPL_SHM_TYPE={0}")
    @ValueSource(strings = {"posix", "sls"})
    void shouldLeaveNothingAfterANormalExit(final String type) throws Exception
    {
        try (DirectoryWatch watch = new DirectoryWatch(tmpfs.dir());
            LocalJob job = start(FaultRank.class, RANKS, env(tmpfs.dir(), "KUPL_SHM_TYPE", type),
                "bytes=" + SEGMENT_BYTES, "rounds=5", "hold=yes"))
        {
            awaitOutput(job, allRanks(job), "holding");
            // While the window lives, its memory is in the private tmpfs, mapped by every process...
            for (int rank = 0; rank < RANKS; rank++)
            {
                assertFalse(mappingsOf(job.pid(rank), tmpfs.dir().toString()).isEmpty(),
                    "rank " + rank + " should map objects from KUPL_SHM_DIR=" + tmpfs.dir() + "\n" + job.outputs());
            }
            final long usedWhileHeld = tmpfs.usedBytes();
            assertTrue(usedWhileHeld >= RANKS * SEGMENT_BYTES, "the window's " + RANKS * SEGMENT_BYTES +
                " bytes should be reserved in the tmpfs, which uses " + usedWhileHeld + "\n" + job.outputs());
            // ...and yet nothing has a name there.
            assertEquals(List.of(), listing(tmpfs.dir()), job.outputs());

            FailureJobs.releaseAll(job);
            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            assertArrayEquals(new int[RANKS], codes, job.outputs());
            assertNothingLeft(watch, job);
        }
    }

    @ParameterizedTest(name = "KUPL_SHM_TYPE={0}")
    @ValueSource(strings = {"posix", "sls"})
    void shouldLeaveNothingWhenARankThrowsWithAWindowAllocated(final String type) throws Exception
    {
        final int victim = 1;
        try (DirectoryWatch watch = new DirectoryWatch(tmpfs.dir());
            LocalJob job = start(FaultRank.class, RANKS, env(tmpfs.dir(), "KUPL_SHM_TYPE", type, "KUPL_SHM_LIVENESS_MS", "50"),
                "bytes=" + SEGMENT_BYTES, "victim=" + victim, "action=throw-after-alloc"))
        {
            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            assertEquals(1, codes[victim], "the exception should escape main\n" + job.outputs());
            assertTrue(outputWith(job, victim, "deliberate failure").contains("deliberate failure"), job.outputs());
            for (final int survivor : ranksBut(job, victim))
            {
                assertEquals(KUPL_ERROR_EXIT, codes[survivor], "rank " + survivor + "\n" + job.outputs());
            }
            assertNothingLeft(watch, job);
        }
    }

    static Stream<Arguments> shouldLeaveNothingWhenARankIsKilled()
    {
        return Stream.of(
            Arguments.of("posix", "sleep-before-alloc", 1),
            Arguments.of("posix", "sleep-after-alloc", 0),
            Arguments.of("posix", "in-fence-loop", 2),
            Arguments.of("sls", "sleep-before-alloc", 0),
            Arguments.of("sls", "sleep-after-alloc", 0),
            Arguments.of("sls", "in-fence-loop", 1));
    }

    @ParameterizedTest(name = "KUPL_SHM_TYPE={0}, rank {2} killed at {1}")
    @MethodSource
    void shouldLeaveNothingWhenARankIsKilled(final String type, final String moment, final int victim) throws Exception
    {
        final boolean inFenceLoop = "in-fence-loop".equals(moment);
        try (DirectoryWatch watch = new DirectoryWatch(tmpfs.dir());
            LocalJob job = start(FaultRank.class, RANKS, env(tmpfs.dir(), "KUPL_SHM_TYPE", type, "KUPL_SHM_LIVENESS_MS", "50"),
                "bytes=" + SEGMENT_BYTES, "victim=" + victim, "action=" + (inFenceLoop ? "none" : moment),
                "rounds=forever"))
        {
            if (inFenceLoop)
            {
                awaitOutput(job, allRanks(job), "fencing");
                Thread.sleep(50);
            }
            else
            {
                awaitOutput(job, victim, "ready", JOB_TIMEOUT);
                // The others are on their way into the allocation (or the first fence); let them get there.
                awaitOutput(job, ranksBut(job, victim), "sleep-before-alloc".equals(moment) ? "comm created" : "allocated");
                Thread.sleep(50);
            }
            if (!"sleep-before-alloc".equals(moment))
            {
                // The window exists, so its memory is in the tmpfs: what the end of the test must see given back.
                final long used = tmpfs.usedBytes();
                assertTrue(used >= RANKS * SEGMENT_BYTES, "the tmpfs uses " + used + " bytes before the kill\n" +
                    job.outputs());
            }
            job.kill(victim);

            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            assertEquals(137, codes[victim], job.outputs());
            for (final int survivor : ranksBut(job, victim))
            {
                assertEquals(KUPL_ERROR_EXIT, codes[survivor], "rank " + survivor + "\n" + job.outputs());
            }
            assertNothingLeft(watch, job);
        }
    }

    /** No entry ever appeared in the directory, none is there, and the tmpfs is empty again. */
    private static void assertNothingLeft(final DirectoryWatch watch, final LocalJob job)
        throws IOException, InterruptedException
    {
        assertEquals(Set.of(), watch.seen(), "entries appeared in KUPL_SHM_DIR=" + tmpfs.dir() + " during the job\n" +
            job.outputs());
        assertEquals(List.of(), listing(tmpfs.dir()), job.outputs());
        // Every process has exited, so its mappings are gone; allow the kernel a moment all the same.
        long used = tmpfs.usedBytes();
        for (int i = 0; i < 100 && used != 0; i++)
        {
            Thread.sleep(10);
            used = tmpfs.usedBytes();
        }
        assertEquals(0, used, "the tmpfs should be empty once every process has exited\n" + job.outputs());
    }
}
