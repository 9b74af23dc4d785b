package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import kupl.bootstrap.BootstrapTimeouts;
import kupl.bootstrap.OobHub;
import kupl.bootstrap.SocketOob;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import xdev.shmdev.programs.LateArrival;

/**
 * Another local user attacks a {@code shm} job while it starts: it reads a rank's command line,
 * then connects to the hub and stays silent, connects and closes, sends garbage, replays a rank's
 * greeting for every rank, and reads the rank's environment. Every attempt must be refused and the
 * job must still succeed, leaving nothing in the temporary directory or {@code /dev/shm}. Needs root
 * (to create the user); skipped otherwise.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StartupAttackTest
{
    private static final String TEST_CLASSES = Path.of(StartupAttackTest.class.getProtectionDomain().getCodeSource()
        .getLocation().getPath()).toString();

    private static ForeignUser attacker;

    @BeforeAll
    static void createAttacker() throws Exception
    {
        attacker = ForeignUser.create();
    }

    @AfterAll
    static void removeAttacker() throws Exception
    {
        if (attacker != null)
        {
            attacker.close();
        }
    }

    @Test
    void aJobStartsWhileAnotherUserAttacksItsHubWithEverythingItCanSee() throws Exception
    {
        // The temporary directory is open to everyone, as /tmp is: only the hub's own directory protects it.
        final Path tmp = Files.createTempDirectory("kupl-attack-tmp-");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        final Path shmDir = Files.createTempDirectory(Path.of("/dev/shm"), "kupl-attack-shm-");
        final Path gate = Files.createTempDirectory("kupl-attack-gate-").resolve("open");
        Process launcher = null;
        try
        {
            // Rank 1 waits at the gate before MPI.Init, so the job is starting while the attacks run.
            final ProcessBuilder job = new ProcessBuilder(javaCommand("-Djava.io.tmpdir=" + tmp,
                LauncherMain.class.getName(), "2", TEST_CLASSES, LateArrival.class.getName(), "gate", "1",
                gate.toString())).redirectErrorStream(true);
            job.environment().put("KUPL_SHM_DIR", shmDir.toString());
            launcher = job.start();
            final StringBuffer jobOutput = collect(launcher);
            final Process intruder = attacker.intrude("scan", "30000", Long.toString(launcher.pid()));
            final String attacks = new String(intruder.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(intruder.waitFor(30, TimeUnit.SECONDS), attacks);
            Files.createFile(gate);
            assertTrue(launcher.waitFor(60, TimeUnit.SECONDS), "the job did not end:\n" + jobOutput);

            final String context = "attacks by " + attacker.name() + ":\n" + attacks + "\njob:\n" + jobOutput;
            assertEquals(0, intruder.exitValue(), context);
            assertTrue(attacks.contains("found kupl-shm:2:"), context);
            for (final String attempt : List.of("list", "silent", "close", "garbage", "replay rank 0", "replay rank 1",
                "environ"))
            {
                assertTrue(attacks.contains("\n" + attempt + ": refused: "), attempt + " was not refused; " + context);
            }
            assertFalse(attacks.contains("ACCEPTED"), context);
            assertEquals(0, launcher.exitValue(), context);
            assertTrue(jobOutput.toString().contains("[0] done") && jobOutput.toString().contains("[1] done"), context);
            assertEquals(List.of(), list(tmp), "left in the temporary directory");
            assertEquals(List.of(), list(shmDir), "left in " + shmDir);
        }
        finally
        {
            if (launcher != null)
            {
                launcher.destroyForcibly();
            }
            Files.deleteIfExists(gate);
            Files.delete(gate.getParent());
            deleteTree(tmp);
            deleteTree(shmDir);
        }
    }

    @Test
    void theHubDropsAnotherUsersConnectionEvenIfItsDirectoryIsOpened() throws Exception
    {
        final BootstrapTimeouts timeouts = new BootstrapTimeouts(60_000, 60_000);
        try (OobHub hub = OobHub.start(1, timeouts))
        {
            // A careless chmod lets the other user reach the socket; the peer's user, from the kernel, still differs.
            Files.setPosixFilePermissions(hub.socket().getParent(), PosixFilePermissions.fromString("rwx--x--x"));
            Files.setPosixFilePermissions(hub.socket(), PosixFilePermissions.fromString("rwxrwxrwx"));
            final Process intruder = attacker.intrude("direct", hub.socket().toString(), Long.toString(hub.jobId()),
                "1");
            final String attempt = new String(intruder.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(intruder.waitFor(30, TimeUnit.SECONDS), attempt);
            assertTrue(attempt.startsWith("replay rank 0: refused: "), attempt);
            assertEquals(1, hub.droppedConnections(), attempt);
            try (SocketOob rank = SocketOob.connect(hub.socket(), hub.jobId(), 0, 1, timeouts))
            {
                assertEquals(0, rank.rank());
            }
        }
    }

    private static List<String> javaCommand(final String... args)
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path")));
        command.addAll(List.of(args));
        return command;
    }

    private static StringBuffer collect(final Process process)
    {
        final StringBuffer output = new StringBuffer();
        Thread.ofPlatform().daemon().start(() ->
        {
            try
            {
                final byte[] buffer = new byte[4096];
                for (int n; (n = process.getInputStream().read(buffer)) > 0; )
                {
                    output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                }
            }
            catch (final IOException e)
            {
                output.append("(output lost: ").append(e).append(")\n");
            }
        });
        return output;
    }

    private static List<Path> list(final Path dir) throws IOException
    {
        try (Stream<Path> entries = Files.list(dir))
        {
            return entries.toList();
        }
    }

    private static void deleteTree(final Path root) throws IOException
    {
        if (Files.exists(root))
        {
            try (Stream<Path> paths = Files.walk(root))
            {
                for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.delete(path);
                }
            }
        }
    }
}
