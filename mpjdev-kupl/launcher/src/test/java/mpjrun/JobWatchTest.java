package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link JobWatch}'s protocol, spoken by hand over loopback: what ends a rank well, what is a death
 * and how it is told to the other ranks, a silent rank, a stranger, and ranks that never connect.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JobWatchTest
{
    private static final Duration LONG_STARTUP = Duration.ofSeconds(60);

    @Test
    void shouldTellTheOtherRanksWhenAConnectionEndsWithoutAWord() throws Exception
    {
        try (JobWatch watch = JobWatch.start(InetAddress.getLoopbackAddress(), 2, LONG_STARTUP);
            FakeRank zero = FakeRank.connect(watch, 0); FakeRank one = FakeRank.connect(watch, 1))
        {
            zero.socket.close();

            assertEquals("DIED 0 its connection to the launcher ended without a word: its JVM was killed (kill -9?), " +
                "halted or crashed, or its node went down; pid 100 on node-a", one.nextLineOtherThanBeat());
            final JobWatch.Failure failure = watch.failure().get(5, TimeUnit.SECONDS);
            assertEquals(0, failure.rank());
            assertEquals(JobWatch.EXIT_RANK_DIED, failure.exitCode());
            assertTrue(failure.message().startsWith("rank 0 died (its connection"), failure.message());
        }
    }

    @Test
    void shouldTakeDoneAndExitZeroForGoodEnds() throws Exception
    {
        try (JobWatch watch = JobWatch.start(InetAddress.getLoopbackAddress(), 2, LONG_STARTUP);
            FakeRank zero = FakeRank.connect(watch, 0); FakeRank one = FakeRank.connect(watch, 1))
        {
            zero.say("DONE");
            zero.socket.close();
            one.say("EXIT 0");
            one.socket.close();

            watch.awaitQuiet(Duration.ofSeconds(5));
            assertFalse(watch.failure().isDone(), () -> watch.failure().join().message());
        }
    }

    @Test
    void shouldNameTheStatusOfARankThatCalledSystemExit() throws Exception
    {
        try (JobWatch watch = JobWatch.start(InetAddress.getLoopbackAddress(), 2, LONG_STARTUP);
            FakeRank zero = FakeRank.connect(watch, 0); FakeRank one = FakeRank.connect(watch, 1))
        {
            one.say("EXIT 3");
            one.socket.close();

            assertEquals("DIED 1 it called System.exit(3); pid 101 on node-a", zero.nextLineOtherThanBeat());
            assertEquals(3, watch.failure().get(5, TimeUnit.SECONDS).exitCode());
        }
    }

    @Test
    void shouldTakeARankSilentForFiveSecondsForDead() throws Exception
    {
        try (JobWatch watch = JobWatch.start(InetAddress.getLoopbackAddress(), 1, LONG_STARTUP);
            FakeRank zero = FakeRank.connect(watch, 0))
        {
            final long startNs = System.nanoTime();
            final JobWatch.Failure failure = watch.failure().get(15, TimeUnit.SECONDS);
            final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

            assertTrue(failure.message().startsWith("rank 0 died (no heartbeat for "), failure.message());
            assertTrue(tookMs >= WatchProtocol.SILENCE_LIMIT_MS && tookMs < WatchProtocol.SILENCE_LIMIT_MS + 2000,
                "took " + tookMs + " ms");
        }
    }

    @Test
    void shouldDropAConnectionWithoutTheJobsToken() throws Exception
    {
        try (JobWatch watch = JobWatch.start(InetAddress.getLoopbackAddress(), 1, LONG_STARTUP);
            Socket stranger = new Socket(InetAddress.getLoopbackAddress(), port(watch)))
        {
            stranger.getOutputStream().write("HELLO wrong 0 1 node-a\n".getBytes(WatchProtocol.CHARSET));

            assertEquals(-1, stranger.getInputStream().read());
            assertFalse(watch.failure().isDone());
        }
    }

    @Test
    void shouldFailTheStartNamingRanksThatNeverConnected() throws Exception
    {
        try (JobWatch watch = JobWatch.start(InetAddress.getLoopbackAddress(), 3, Duration.ofMillis(500));
            FakeRank one = FakeRank.connect(watch, 1))
        {
            final JobWatch.Failure failure = watch.failure().get(10, TimeUnit.SECONDS);

            assertEquals(0, failure.rank());
            assertTrue(failure.message().startsWith("the job could not start: ranks 0, 2 of 3 did not connect to " +
                "the launcher's job watch at " + watch.address() + " within 500 ms"), failure.message());
        }
    }

    @Test
    void shouldNameARankThatSaidItsRankAfterItsHello() throws Exception
    {
        try (JobWatch watch = JobWatch.start(InetAddress.getLoopbackAddress(), 2, LONG_STARTUP);
            FakeRank zero = FakeRank.connect(watch, 0); FakeRank later = FakeRank.connectUnknown(watch))
        {
            later.say("RANK 1");
            later.say("FAILED java.lang.IllegalStateException: boom");
            later.socket.close();

            assertEquals("DIED 1 its main threw java.lang.IllegalStateException: boom; pid 7 on node-b",
                zero.nextLineOtherThanBeat());
        }
    }

    @Test
    void shouldReadTheStatusThatRuntimeExitLogs()
    {
        assertEquals(OptionalInt.of(3), ExitStatusProbe.parse("Runtime.exit(3)"));
        assertEquals(OptionalInt.of(-1), ExitStatusProbe.parse("Runtime.exit() called with status: -1"));
        assertEquals(OptionalInt.empty(), ExitStatusProbe.parse("something else"));
        assertEquals(Optional.empty(), JobWatch.deathIn("DONE"));
        assertTrue(JobWatch.deathIn("EXIT ?").orElseThrow().contains("no System.exit status"));
    }

    @Test
    void shouldListenOnLoopbackForAJobOnThisHost() throws Exception
    {
        assertTrue(JobWatch.addressFor(List.of()).isLoopbackAddress());
        assertTrue(JobWatch.addressFor(List.of("localhost", "127.0.0.2")).isLoopbackAddress());
    }

    private static int port(final JobWatch watch)
    {
        return Integer.parseInt(watch.address().substring(watch.address().lastIndexOf(':') + 1));
    }

    /** A rank's end of the protocol, spoken by the test. */
    private static final class FakeRank implements AutoCloseable
    {
        final Socket socket;
        final OutputStream out;
        final BufferedReader in;

        private FakeRank(final Socket socket) throws IOException
        {
            this.socket = socket;
            this.out = socket.getOutputStream();
            this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), WatchProtocol.CHARSET));
        }

        static FakeRank connect(final JobWatch watch, final int rank) throws IOException
        {
            final String token = watch.rankOptions().get(1).substring(watch.rankOptions().get(1).indexOf('=') + 1);
            final FakeRank fake = new FakeRank(new Socket(InetAddress.getLoopbackAddress(), port(watch)));
            fake.say("HELLO " + token + " " + rank + " " + (100 + rank) + " node-a");
            return fake;
        }

        static FakeRank connectUnknown(final JobWatch watch) throws IOException
        {
            final String token = watch.rankOptions().get(1).substring(watch.rankOptions().get(1).indexOf('=') + 1);
            final FakeRank fake = new FakeRank(new Socket(InetAddress.getLoopbackAddress(), port(watch)));
            fake.say("HELLO " + token + " ? 7 node-b");
            return fake;
        }

        void say(final String line) throws IOException
        {
            out.write((line + "\n").getBytes(WatchProtocol.CHARSET));
            out.flush();
        }

        String nextLineOtherThanBeat() throws IOException
        {
            socket.setSoTimeout(10_000);
            for (String line; (line = in.readLine()) != null; )
            {
                if (!line.equals("BEAT"))
                {
                    return line;
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException
        {
            socket.close();
        }
    }
}
