package xdev.shmdev;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import kupl.bootstrap.BootstrapTimeouts;
import kupl.bootstrap.SocketOob;

/**
 * What another local user tries against a starting {@code shm} job ({@link StartupAttackTest} runs
 * it as a throw-away user): one line per attempt, {@code <attempt>: refused: <why>} or
 * {@code <attempt>: ACCEPTED}.
 *
 * <p>{@code scan <wait ms> <launcher pid>}: finds the {@code kupl-shm:} argument of a child of that
 * launcher in {@code /proc/<pid>/cmdline} (readable by every user; other jobs on this machine are left
 * alone), then lists the hub's directory, connects and stays silent, connects and
 * closes, sends garbage, replays a rank's greeting for every rank with what the command line shows,
 * and reads that rank's environment. {@code direct <socket> <job id> <size>}: replays rank 0's greeting.
 */
final class Intruder
{
    private static final BootstrapTimeouts QUICK = new BootstrapTimeouts(3_000, 3_000);

    private Intruder()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if ("direct".equals(args[0]))
        {
            replay(Path.of(args[1]), Long.parseLong(args[2]), 0, Integer.parseInt(args[3]));
            return;
        }
        final long deadlineNs = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000L;
        while (System.nanoTime() < deadlineNs)
        {
            final long launcher = Long.parseLong(args[2]);
            for (final ProcessHandle process : ProcessHandle.allProcesses().toList())
            {
                final boolean child = process.parent().map(parent -> parent.pid() == launcher).orElse(false);
                final String conf = child ? visibleConf(process.pid()) : null;
                if (conf != null)
                {
                    attack(process.pid(), conf);
                    return;
                }
            }
            Thread.sleep(50);
        }
        System.out.println("no kupl-shm job visible in /proc");
        System.exit(3);
    }

    private static void attack(final long pid, final String conf) throws Exception
    {
        System.out.println("found " + conf + " on pid " + pid);
        final String[] fields = conf.substring("kupl-shm:".length()).split(":", 3);
        final int size = Integer.parseInt(fields[0]);
        final long jobId = Long.parseLong(fields[1]);
        final Path socket = Path.of(fields[2]);
        final List<SocketChannel> open = new ArrayList<>();
        attempt("list", () ->
        {
            try (Stream<Path> entries = Files.list(socket.getParent()))
            {
                entries.count();
            }
        });
        attempt("silent", () -> open.add(SocketChannel.open(UnixDomainSocketAddress.of(socket))));
        attempt("close", () -> SocketChannel.open(UnixDomainSocketAddress.of(socket)).close());
        attempt("garbage", () ->
        {
            try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket)))
            {
                channel.write(ByteBuffer.wrap("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            }
        });
        for (int rank = 0; rank < size; rank++)
        {
            replay(socket, jobId, rank, size);
        }
        attempt("environ", () -> Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ")));
        for (final SocketChannel channel : open)
        {
            channel.close();
        }
        System.out.println("attacks done");
    }

    private static void replay(final Path socket, final long jobId, final int rank, final int size)
    {
        attempt("replay rank " + rank, () -> SocketOob.connect(socket, jobId, rank, size, QUICK).close());
    }

    private interface Attempt
    {
        void run() throws IOException;
    }

    private static void attempt(final String name, final Attempt attempt)
    {
        try
        {
            attempt.run();
            System.out.println(name + ": ACCEPTED");
        }
        catch (final IOException | RuntimeException e)
        {
            System.out.println(name + ": refused: " + e);
        }
        System.out.flush();
    }

    private static String visibleConf(final long pid)
    {
        try
        {
            final byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            for (final String argument : new String(cmdline, StandardCharsets.UTF_8).split("\0"))
            {
                if (argument.startsWith("kupl-shm:"))
                {
                    return argument;
                }
            }
        }
        catch (final IOException e)
        {
            // gone, or hidden from this user
        }
        return null;
    }
}
