package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import xdev.shmdev.programs.AllToAllLoad;

/**
 * The all-to-all load test: a job of many JVM processes on this node ({@value #DEFAULT_RANKS} by
 * default, oversubscribed on a small machine) runs Barrier, Allreduce and an all-to-all in which
 * every rank sends every other one a message and checks what it got ({@link AllToAllLoad}). Every
 * rank's queue then takes records from all the others at once. Each rank runs in a small JVM (the
 * options below), so that many fit in memory. Large messages go through the receivers' staging
 * rings, every rank's granted to one sender at a time while the others wait their turn
 * ({@link StagedTransfers}); {@code -Dshm.manyRanks.directReads=auto} leaves the device's default,
 * which reads them with {@code process_vm_readv} when the ranks outnumber the cores.
 * {@code -Dshm.manyRanks=64} runs it with 64 ranks:
 *
 * <pre>
 *   mvn -B -q verify -pl mpjdev-kupl/launcher -am -Dtest=ShmManyRanksTest -Dshm.manyRanks=64 \
 *       -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@Tag("slow")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ShmManyRanksTest
{
    static final int DEFAULT_RANKS = 16;
    private static final int RANKS = Integer.getInteger("shm.manyRanks", DEFAULT_RANKS);
    /** Rank JVMs as small as the job allows: 64 of them share this machine's memory. */
    private static final String RANK_JVM_ARGS = "-Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -D" +
        DirectReads.PROPERTY + "=" + System.getProperty("shm.manyRanks.directReads", "false");
    /** JVMs of a big job arrive at the hub slowly on two shared cores: more than the default minute. */
    private static final String ARRIVAL_MS = "540000";
    private static final String TEST_CLASSES = Path.of(ShmManyRanksTest.class.getProtectionDomain().getCodeSource()
        .getLocation().getPath()).toString();

    @Test
    void manyRanksRunBarrierAllreduceAndAnAllToAllCorrectly() throws Exception
    {
        final List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED", "-D" + LauncherMain.RANK_JVM_ARGS + "=" + RANK_JVM_ARGS,
            "-cp", System.getProperty("java.class.path"), LauncherMain.class.getName(), Integer.toString(RANKS),
            TEST_CLASSES, AllToAllLoad.class.getName());
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("KUPL_SHM_ARRIVAL_MS", ARRIVAL_MS);
        final Process launcher = builder.start();
        final CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(launcher));
        if (!launcher.waitFor(570, TimeUnit.SECONDS))
        {
            // The ranks end themselves once their launcher is gone.
            launcher.destroyForcibly();
            throw new AssertionError(RANKS + "-rank job did not end within 570 s:\n" + output.getNow("(no output)"));
        }
        final String all = output.get(30, TimeUnit.SECONDS);
        assertEquals(0, launcher.exitValue(), all);
        for (int rank = 0; rank < RANKS; rank++)
        {
            assertTrue(all.contains("[" + rank + "] ALLTOALL " + rank + " ok " + (RANKS - 1) + "\n"),
                "rank " + rank + " did not check every message:\n" + all);
        }
    }

    private static String readAll(final Process process)
    {
        try
        {
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException e)
        {
            return "(output unreadable: " + e + ")";
        }
    }
}
