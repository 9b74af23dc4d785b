package kupl;

import static kupl.FailureJobs.JOB_TIMEOUT;
import static kupl.FailureJobs.KUPL_ERROR_EXIT;
import static kupl.FailureJobs.allRanks;
import static kupl.FailureJobs.awaitOutput;
import static kupl.FailureJobs.env;
import static kupl.FailureJobs.outputWith;
import static kupl.FailureJobs.start;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import kupl.bootstrap.LocalJob;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code KUPL_SHM_TYPE=sls KUPL_SHM_ENABLE_HUGEPAGE=y}: without huge pages every process fails
 * at allocation with a message naming HugePages and nr_hugepages; with 8 of them a window of
 * 3 MiB per process works and its pages are given back after the job. Changes
 * {@code /proc/sys/vm/nr_hugepages} (as root) and restores it afterwards, holding
 * {@value #LOCK_FILE} meanwhile so that other test JVMs that honour the lock wait.
 */
@Timeout(60)
class HugePagesTest
{
    private static final Path NR_HUGEPAGES = Path.of("/proc/sys/vm/nr_hugepages");
    private static final Path NR_OVERCOMMIT = Path.of("/proc/sys/vm/nr_overcommit_hugepages");
    private static final String LOCK_FILE = "/tmp/kupl-nr_hugepages.lock";
    private static final int RANKS = 2;
    private static final long SEGMENT_BYTES = 3L << 20;

    private static FileChannel lockChannel;
    private static FileLock lock;
    private static String originalPages;
    private static Path shmDir;

    @BeforeAll
    static void takeTheHugePageSetting() throws IOException
    {
        Assumptions.assumeTrue(FailureJobs.isRoot(), "changing " + NR_HUGEPAGES + " needs root; this JVM is not root");
        Assumptions.assumeTrue(Files.isWritable(NR_HUGEPAGES), NR_HUGEPAGES + " is not writable here");
        lockChannel = FileChannel.open(Path.of(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        lock = lockChannel.lock();
        originalPages = Files.readString(NR_HUGEPAGES).trim();
        // The control object is never huge: it goes to a directory of this test's own.
        shmDir = FailureJobs.createShmDir("kupl-hugepages-");
    }

    @AfterAll
    static void restoreTheHugePageSetting() throws IOException
    {
        try
        {
            if (originalPages != null)
            {
                Files.writeString(NR_HUGEPAGES, originalPages);
                assertEquals(originalPages, Files.readString(NR_HUGEPAGES).trim(), "nr_hugepages not restored");
            }
            FailureJobs.removeShmDir(shmDir);
        }
        finally
        {
            if (lock != null)
            {
                lock.release();
                lockChannel.close();
            }
        }
    }

    @Test
    void shouldFailOnEveryProcessWithoutHugePages() throws Exception
    {
        Assumptions.assumeTrue("0".equals(Files.readString(NR_OVERCOMMIT).trim()),
            "nr_overcommit_hugepages is not 0, so huge pages can be had without nr_hugepages");
        setHugePages(0);
        try (LocalJob job = start(FaultRank.class, RANKS, hugePageEnv(), "bytes=" + SEGMENT_BYTES))
        {
            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            assertArrayEquals(new int[]{KUPL_ERROR_EXIT, KUPL_ERROR_EXIT}, codes, job.outputs());
            for (int rank = 0; rank < RANKS; rank++)
            {
                final String error = outputWith(job, rank, "error: ").lines().filter(l -> l.startsWith("error: ")).findFirst().orElse("");
                assertTrue(error.contains("HugePages") && error.contains("nr_hugepages"),
                    "rank " + rank + " should say that huge pages are missing and how to reserve them\n" + job.outputs());
            }
        }
    }

    @Test
    void shouldShareAWindowOfHugePagesAndGiveThemBack() throws Exception
    {
        setHugePages(8);
        final long freeBefore = MemoryNodes.hugePagesFree();
        // Two segments of 3 MiB need at least three 2 MiB pages.
        Assumptions.assumeTrue(freeBefore >= 4, "the kernel provided only " + freeBefore + " free huge pages of 8");
        try (LocalJob job = start(FaultRank.class, RANKS, hugePageEnv(), "bytes=" + SEGMENT_BYTES, "rounds=5",
            "hold=yes"))
        {
            awaitOutput(job, allRanks(job), "holding");
            final long freeWhileHeld = MemoryNodes.hugePagesFree();
            assertTrue(freeBefore - freeWhileHeld >= 3, "the window should hold at least 3 huge pages: HugePages_Free " +
                freeBefore + " before, " + freeWhileHeld + " while held\n" + job.outputs());

            FailureJobs.releaseAll(job);
            final int[] codes = job.awaitExit(JOB_TIMEOUT);
            assertArrayEquals(new int[RANKS], codes, job.outputs());
            long freeAfter = MemoryNodes.hugePagesFree();
            for (int i = 0; i < 100 && freeAfter != freeBefore; i++)
            {
                Thread.sleep(10);
                freeAfter = MemoryNodes.hugePagesFree();
            }
            assertEquals(freeBefore, freeAfter, "HugePages_Free should return to its value before the job\n" +
                job.outputs());
        }
    }

    private static java.util.Map<String, String> hugePageEnv()
    {
        return env(shmDir, "KUPL_SHM_TYPE", "sls", "KUPL_SHM_ENABLE_HUGEPAGE", "y");
    }

    private static void setHugePages(final int pages) throws IOException
    {
        Files.writeString(NR_HUGEPAGES, Integer.toString(pages));
        final String now = Files.readString(NR_HUGEPAGES).trim();
        if (pages == 0)
        {
            assertEquals("0", now, "nr_hugepages could not be set to 0 (pages in use?)");
        }
    }
}
