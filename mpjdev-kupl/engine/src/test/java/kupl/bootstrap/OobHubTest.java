package kupl.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import kupl.Kupl;
import kupl.KuplException;
import kupl.ShmDatatype;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hub's start-up, in one JVM with ranks as threads: connections that are not ranks (silent,
 * closed at once, garbage, another job's, a taken rank) are dropped without delaying the ranks,
 * and a rank that does not arrive ends the start on every side with a message naming it.
 * Attacks from another user, with real processes, are in the device's {@code StartupAttackTest}.
 */
@Tag("slow")
@Timeout(30)
class OobHubTest
{
    /** Longer than the test's time limit: a hub that served one connection at a time would hang here. */
    private static final BootstrapTimeouts PATIENT = new BootstrapTimeouts(60_000, 60_000);

    @Test
    void shouldServeTheRanksWhileOtherConnectionsStaySilentCloseEarlyOrSendGarbage() throws Exception
    {
        final List<SocketChannel> intruders = new ArrayList<>();
        try (OobHub hub = OobHub.start(3, PATIENT))
        {
            intruders.add(raw(hub));
            raw(hub).close();
            intruders.add(send(raw(hub), new byte[] {'G', 'E', 'T', ' ', '/', '\r', '\n', '\r', '\n'}));
            intruders.add(send(raw(hub), new byte[64]));
            intruders.add(greet(raw(hub), new Greeting(hub.jobId() + 1, 3, 0)));
            intruders.add(greet(raw(hub), new Greeting(hub.jobId(), 3, 7)));
            intruders.add(greet(raw(hub), new Greeting(hub.jobId(), 4, 0)));

            final List<byte[]> gathered = allgatherRanks(hub, 3, PATIENT);

            for (final byte[] recv : gathered)
            {
                assertArrayEquals(new byte[] {0, 1, 2}, recv);
            }
            assertTrue(hub.arrival().isDone() && !hub.arrival().isCompletedExceptionally());
            assertFalse(Files.exists(hub.socket().getParent()), "the socket's directory outlived the arrival");
            awaitDropped(hub, 6);
        }
        finally
        {
            for (final SocketChannel intruder : intruders)
            {
                intruder.close();
            }
        }
    }

    @Test
    void shouldDropASilentConnectionAfterTheHelloTimeout() throws Exception
    {
        try (OobHub hub = OobHub.start(1, new BootstrapTimeouts(60_000, 300));
            SocketChannel silent = raw(hub))
        {
            assertEquals(-1, silent.read(ByteBuffer.allocate(1)), "the hub answered a connection that said nothing");
            assertEquals(1, hub.droppedConnections());
            assertArrayEquals(new byte[] {0}, allgatherRanks(hub, 1, PATIENT).get(0));
        }
    }

    @Test
    void shouldRefuseASecondConnectionForARankThatHasArrived() throws Exception
    {
        try (OobHub hub = OobHub.start(2, PATIENT))
        {
            final ExecutorService ranks = Executors.newVirtualThreadPerTaskExecutor();
            final Future<SocketOob> first = ranks.submit(() -> SocketOob.connect(hub.socket(), hub.jobId(), 0, 2,
                PATIENT));
            awaitMember(hub, first);
            try (SocketChannel impostor = greet(raw(hub), new Greeting(hub.jobId(), 2, 0)))
            {
                assertEquals(-1, impostor.read(ByteBuffer.allocate(1)), "a second rank 0 was let in");
            }
            assertEquals(1, hub.droppedConnections());
            try (SocketOob one = SocketOob.connect(hub.socket(), hub.jobId(), 1, 2, PATIENT);
                SocketOob zero = first.get())
            {
                assertEquals(List.of(0, 1), List.of(zero.rank(), one.rank()));
                assertEquals(2, hub.arrivedRanks());
            }
            ranks.shutdownNow();
        }
    }

    @Test
    void shouldNameTheRankThatDidNotArriveOnEverySide() throws Exception
    {
        final BootstrapTimeouts brief = new BootstrapTimeouts(1_500, 1_000);
        try (OobHub hub = OobHub.start(3, brief))
        {
            final ExecutorService ranks = Executors.newVirtualThreadPerTaskExecutor();
            final Future<SocketOob> zero = ranks.submit(() -> SocketOob.connect(hub.socket(), hub.jobId(), 0, 3,
                PATIENT));
            final Future<SocketOob> two = ranks.submit(() -> SocketOob.connect(hub.socket(), hub.jobId(), 2, 3,
                PATIENT));
            final String expected = "rank 1 of 3 did not arrive within 1500 ms of the first rank";
            for (final Future<SocketOob> rank : List.of(zero, two))
            {
                final ExecutionException e = assertThrows(ExecutionException.class, rank::get);
                assertTrue(e.getCause().getMessage().contains(expected), e.getCause().getMessage());
            }
            final CompletionException given = assertThrows(CompletionException.class, () -> hub.arrival().join());
            assertTrue(given.getCause().getMessage().contains(expected), given.getCause().getMessage());
            assertTrue(hub.failure().contains(expected), hub.failure());
            assertFalse(Files.exists(hub.socket().getParent()), "the socket's directory outlived the failure");
            ranks.shutdownNow();
        }
    }

    @Test
    void shouldGiveUpTheJobWhenAProcessExitsBeforeConnectingWhileAnotherHasJoined() throws Exception
    {
        try (OobHub hub = OobHub.start(2, PATIENT))
        {
            final ExecutorService ranks = Executors.newVirtualThreadPerTaskExecutor();
            final Future<SocketOob> zero = ranks.submit(() -> SocketOob.connect(hub.socket(), hub.jobId(), 0, 2,
                PATIENT));
            awaitMember(hub, zero);
            hub.processExited(1, 0);
            final ExecutionException e = assertThrows(ExecutionException.class, zero::get);
            assertTrue(e.getCause().getMessage().contains("rank 1 of 2 exited with status 0 before it joined the " +
                "job, while rank 0 waits for it in MPI.Init"), e.getCause().getMessage());
            assertTrue(JobRefusedException.in(e.getCause()), "the refusal is not in the cause chain");
            ranks.shutdownNow();
        }
    }

    @Test
    void shouldNotGiveUpWhileProcessesEndWithoutJoiningAndNoneHasJoined() throws Exception
    {
        try (OobHub hub = OobHub.start(3, PATIENT))
        {
            hub.processExited(0, 0);
            hub.processExited(2, 0);

            assertEquals(null, hub.failure());
            assertFalse(hub.arrival().isDone());
            assertFalse(hub.joined(0));
        }
    }

    @Test
    void shouldRefuseARankThatJoinsAfterAnotherEndedWithoutJoining() throws Exception
    {
        try (OobHub hub = OobHub.start(3, PATIENT))
        {
            hub.processExited(1, 0);
            hub.processExited(2, 137);
            final IOException e = assertThrows(IOException.class,
                () -> SocketOob.connect(hub.socket(), hub.jobId(), 0, 3, PATIENT));

            assertTrue(JobRefusedException.in(e), e::getMessage);
            assertTrue(e.getMessage().contains("ranks 1, 2 of 3 ended before they joined the job (rank 1 exited with " +
                "status 0, rank 2 was killed by signal 9 (SIGKILL), exit status 137), while rank 0 waits for them"),
                e::getMessage);
            // The refusal is sent before the arrival fails: wait for the latter.
            final CompletionException given = assertThrows(CompletionException.class, () -> hub.arrival().join());
            assertTrue(e.getMessage().contains(given.getCause().getMessage()), given.getCause()::getMessage);
        }
    }

    @Test
    void shouldStartTheArrivalTimeoutWithTheFirstArrival() throws Exception
    {
        final BootstrapTimeouts brief = new BootstrapTimeouts(1_000, 1_000);
        try (OobHub hub = OobHub.start(2, brief))
        {
            // Longer than the arrival timeout before anyone arrives: nobody waited, so the job may still start.
            Thread.sleep(1_500);
            final List<byte[]> gathered = allgatherRanks(hub, 2, brief);

            assertArrayEquals(new byte[] {0, 1}, gathered.get(1));
        }
    }

    @Test
    void shouldTimeOutARankWhoseHubNeverAnswers() throws Exception
    {
        final Path dir = Files.createTempDirectory("kupl-oob-test-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path socket = dir.resolve("hub");
        try (ServerSocketChannel mute = ServerSocketChannel.open(StandardProtocolFamily.UNIX))
        {
            mute.bind(UnixDomainSocketAddress.of(socket));
            final IOException e = assertThrows(IOException.class,
                () -> SocketOob.connect(socket, 1, 0, 2, new BootstrapTimeouts(500, 500)));
            assertTrue(e.getMessage().contains("rank 0 of 2: not every rank arrived at the job's hub within 500 ms"),
                e.getMessage());
        }
        finally
        {
            Files.deleteIfExists(socket);
            Files.delete(dir);
        }
    }

    @Test
    void shouldSayTheHubIsGoneWhenItsSocketIsRemoved() throws Exception
    {
        final OobHub hub = OobHub.start(1, PATIENT);
        hub.close();
        final IOException e = assertThrows(IOException.class,
            () -> SocketOob.connect(hub.socket(), hub.jobId(), 0, 1, PATIENT));
        assertTrue(e.getMessage().startsWith("rank 0 of 1: cannot join the job through its hub " + hub.socket()),
            e.getMessage());
    }

    @Test
    void shouldKeepItsSocketInADirectoryOnlyItsUserMayEnterAndRemoveItOnClose() throws Exception
    {
        final Path directory;
        try (OobHub hub = OobHub.start(2, PATIENT))
        {
            directory = hub.socket().getParent();
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(directory)));
            assertTrue(Files.exists(hub.socket()));
        }
        assertFalse(Files.exists(directory), directory + " outlived its hub");
    }

    @Test
    void shouldReadTheTimeoutsFromTheEnvironmentAndNameABadValue()
    {
        assertEquals(new BootstrapTimeouts(60_000, 5_000), BootstrapTimeouts.defaults());
        assertEquals(new BootstrapTimeouts(2_000, 100),
            BootstrapTimeouts.fromVariables(Map.of("KUPL_SHM_ARRIVAL_MS", "2000", "KUPL_SHM_HELLO_MS", " 100 ")));
        assertEquals("KUPL_SHM_ARRIVAL_MS=0 is not allowed: give a number of milliseconds from 1 to 3600000 " +
            "(default 60000)", assertThrows(KuplException.class,
            () -> BootstrapTimeouts.fromVariables(Map.of("KUPL_SHM_ARRIVAL_MS", "0"))).getMessage());
        assertTrue(assertThrows(KuplException.class,
            () -> BootstrapTimeouts.fromVariables(Map.of("KUPL_SHM_HELLO_MS", "5s"))).getMessage()
            .startsWith("KUPL_SHM_HELLO_MS=5s is not allowed"));
        assertThrows(IllegalArgumentException.class, () -> OobHub.start(0, PATIENT));
    }

    /** Ranks 0..size-1 as threads: each connects and allgathers its rank as one byte. */
    private static List<byte[]> allgatherRanks(final OobHub hub, final int size, final BootstrapTimeouts timeouts)
        throws Exception
    {
        try (ExecutorService ranks = Executors.newVirtualThreadPerTaskExecutor())
        {
            final List<Future<byte[]>> results = new ArrayList<>();
            for (int rank = 0; rank < size; rank++)
            {
                final int r = rank;
                results.add(ranks.submit(() ->
                {
                    try (SocketOob oob = SocketOob.connect(hub.socket(), hub.jobId(), r, size, timeouts))
                    {
                        final byte[] recv = new byte[size];
                        assertEquals(Kupl.KUPL_OK, oob.oobAllgather(new byte[] {(byte)r}, recv, 1, null,
                            ShmDatatype.CHAR));
                        return recv;
                    }
                }));
            }
            final List<byte[]> gathered = new ArrayList<>();
            for (final Future<byte[]> result : results)
            {
                gathered.add(result.get());
            }
            return gathered;
        }
    }

    private static SocketChannel raw(final OobHub hub) throws IOException
    {
        return SocketChannel.open(UnixDomainSocketAddress.of(hub.socket()));
    }

    private static SocketChannel send(final SocketChannel channel, final byte[] bytes) throws IOException
    {
        channel.write(ByteBuffer.wrap(bytes));
        return channel;
    }

    private static SocketChannel greet(final SocketChannel channel, final Greeting greeting) throws IOException
    {
        final DataOutputStream out = new DataOutputStream(Channels.newOutputStream(channel));
        greeting.write(out);
        out.flush();
        return channel;
    }

    /** Waits until a connecting rank is in the hub (its greeting read), or has failed. */
    private static void awaitMember(final OobHub hub, final Future<SocketOob> rank) throws InterruptedException
    {
        while (!rank.isDone() && hub.arrivedRanks() == 0)
        {
            Thread.sleep(10);
        }
    }

    private static void awaitDropped(final OobHub hub, final int expected) throws InterruptedException
    {
        while (hub.droppedConnections() < expected)
        {
            Thread.sleep(10);
        }
        assertEquals(expected, hub.droppedConnections());
    }
}
