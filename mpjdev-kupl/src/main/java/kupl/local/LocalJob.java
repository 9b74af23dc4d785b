package kupl.local;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * N JVMs on this node running one main class, with a hub that serves their out-of-band
 * allgather and barrier ({@link SocketOob}). Each process's output is captured (and may be
 * echoed with a {@code [rank r]} prefix). If a process dies, the hub drops every connection,
 * so the others' out-of-band calls fail instead of waiting for ever.
 *
 * <pre>{@code
 * try (LocalJob job = LocalJob.start(MyRank.class, 4, Map.of("KUPL_SHM_TYPE", "sls"), List.of("arg")))
 * {
 *     job.awaitExit(Duration.ofSeconds(30));   // exit codes, one per rank
 * }
 * }</pre>
 */
public final class LocalJob implements AutoCloseable
{
    private final List<Process> processes = new ArrayList<>();
    private final List<StringBuffer> outputs = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();
    private final ServerSocket server;
    private final Thread hub;
    private volatile String hubFailure;
    /** True until every process has connected: until then a process's exit is seen by no socket. */
    private volatile boolean accepting = true;

    private LocalJob(final int size, final ServerSocket server, final long token)
    {
        this.server = server;
        this.hub = Thread.ofPlatform().daemon().name("kupl-local-hub").unstarted(() -> serve(size, token));
    }

    /**
     * Starts {@code size} JVMs running {@code mainClass} with this JVM's class path.
     *
     * @param env  variables added to each process's environment.
     * @param args arguments of each process's {@code main}.
     */
    public static LocalJob start(final Class<?> mainClass, final int size, final Map<String, String> env,
        final List<String> args) throws IOException
    {
        return start(mainClass.getName(), size, env, List.of(), args, false);
    }

    /**
     * Starts {@code size} JVMs running {@code mainClass}.
     *
     * @param jvmArgs extra JVM options (before the main class).
     * @param echo    copy each process's output to this one's, prefixed with its rank.
     */
    public static LocalJob start(final String mainClass, final int size, final Map<String, String> env,
        final List<String> jvmArgs, final List<String> args, final boolean echo) throws IOException
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("size=" + size + " must be at least 1");
        }
        final ServerSocket server = new ServerSocket(0, size, InetAddress.getLoopbackAddress());
        final long token = new SecureRandom().nextLong();
        final LocalJob job = new LocalJob(size, server, token);
        job.hub.start();
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try
        {
            for (int rank = 0; rank < size; rank++)
            {
                final List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                    "-XX:+UseSerialGC", "-Xshare:auto",
                    "-cp", System.getProperty("java.class.path"),
                    "-D" + SocketOob.PORT_PROPERTY + "=" + server.getLocalPort(),
                    "-D" + SocketOob.RANK_PROPERTY + "=" + rank,
                    "-D" + SocketOob.SIZE_PROPERTY + "=" + size,
                    "-D" + SocketOob.TOKEN_PROPERTY + "=" + token));
                command.addAll(jvmArgs);
                command.add(mainClass);
                command.addAll(args);
                final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
                builder.environment().putAll(env);
                final Process process = builder.start();
                final int exitedRank = rank;
                process.onExit().thenRun(() -> job.exitedWhileAccepting(exitedRank));
                final StringBuffer output = new StringBuffer();
                job.processes.add(process);
                job.outputs.add(output);
                final int r = rank;
                job.pumps.add(Thread.ofPlatform().daemon().name("kupl-local-output-" + rank)
                    .start(() -> pump(process.getInputStream(), output, echo ? "[rank " + r + "] " : null)));
            }
        }
        catch (final IOException | RuntimeException e)
        {
            job.close();
            throw e;
        }
        return job;
    }

    public int size()
    {
        return processes.size();
    }

    public long pid(final int rank)
    {
        return processes.get(rank).pid();
    }

    public Process process(final int rank)
    {
        return processes.get(rank);
    }

    /** Everything process {@code rank} has printed so far (stdout and stderr). */
    public String output(final int rank)
    {
        return outputs.get(rank).toString();
    }

    /** All outputs, each line prefixed with its rank, for failure messages. */
    public String outputs()
    {
        final StringBuilder all = new StringBuilder();
        for (int rank = 0; rank < outputs.size(); rank++)
        {
            for (final String line : output(rank).split("\n"))
            {
                all.append("[rank ").append(rank).append("] ").append(line).append('\n');
            }
        }
        if (hubFailure != null)
        {
            all.append("[hub] ").append(hubFailure).append('\n');
        }
        return all.toString();
    }

    /** Kills process {@code rank} with SIGKILL. */
    public void kill(final int rank)
    {
        processes.get(rank).destroyForcibly();
    }

    /**
     * Waits for every process to exit.
     *
     * @return the exit codes, by rank.
     * @throws IllegalStateException with every process's output if one has not exited in time
     *         (all are killed then).
     */
    public int[] awaitExit(final Duration timeout) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        final int[] codes = new int[processes.size()];
        for (int rank = 0; rank < processes.size(); rank++)
        {
            final Process process = processes.get(rank);
            if (!process.waitFor(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS))
            {
                close();
                throw new IllegalStateException("rank " + rank + " of the local job did not exit within " + timeout +
                    "; output:\n" + outputs());
            }
            codes[rank] = process.exitValue();
        }
        // A process's exit does not mean its last lines have been read: wait for each pump to reach end of stream.
        for (final Thread pump : pumps)
        {
            pump.join(Duration.ofSeconds(5));
        }
        return codes;
    }

    /** Kills any process still running and stops the hub. */
    @Override
    public void close()
    {
        for (final Process process : processes)
        {
            process.destroyForcibly();
        }
        for (final Process process : processes)
        {
            try
            {
                process.waitFor(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
        try
        {
            server.close();
        }
        catch (final IOException ignored)
        {
            // nothing left to release
        }
    }

    private void serve(final int size, final long token)
    {
        final Socket[] sockets = new Socket[size];
        final DataInputStream[] ins = new DataInputStream[size];
        final DataOutputStream[] outs = new DataOutputStream[size];
        try
        {
            for (int connected = 0; connected < size; connected++)
            {
                final Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                final DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
                if (in.readLong() != token)
                {
                    socket.close();
                    connected--;
                    continue;
                }
                final int rank = in.readInt();
                sockets[rank] = socket;
                ins[rank] = in;
                outs[rank] = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            }
            accepting = false;
            while (true)
            {
                // One collective round: every rank contributes one record, in rank order.
                final Map<Integer, byte[]> records = new HashMap<>();
                int length = -1;
                for (int rank = 0; rank < size; rank++)
                {
                    final int bytes = ins[rank].readInt();
                    if (length >= 0 && bytes != length)
                    {
                        throw new IOException("rank " + rank + " sent " + bytes + " bytes, rank 0 sent " + length);
                    }
                    length = bytes;
                    final byte[] record = new byte[bytes];
                    ins[rank].readFully(record);
                    records.put(rank, record);
                }
                for (int rank = 0; rank < size; rank++)
                {
                    outs[rank].writeInt(length * size);
                    for (int peer = 0; peer < size; peer++)
                    {
                        outs[rank].write(records.get(peer));
                    }
                    outs[rank].flush();
                }
            }
        }
        catch (final IOException e)
        {
            // A process exited (normally at the end, or because it died): release everyone.
            if (hubFailure == null)
            {
                hubFailure = e.getMessage();
            }
        }
        finally
        {
            for (final Socket socket : sockets)
            {
                closeQuietly(socket);
            }
        }
    }

    /**
     * A process that exits before it has connected would leave the hub, and so every other
     * process, waiting in accept for ever: stop accepting, which closes the connections made
     * so far, so that the others' out-of-band calls fail.
     */
    private void exitedWhileAccepting(final int rank)
    {
        if (accepting)
        {
            hubFailure = "rank " + rank + " exited before every process had connected to the hub";
            try
            {
                server.close();
            }
            catch (final IOException ignored)
            {
                // closing is all that was wanted
            }
        }
    }

    private static void closeQuietly(final Socket socket)
    {
        if (socket != null)
        {
            try
            {
                socket.close();
            }
            catch (final IOException ignored)
            {
                // already gone
            }
        }
    }

    private static void pump(final InputStream stream, final StringBuffer output, final String echoPrefix)
    {
        try (InputStream in = stream)
        {
            final byte[] buffer = new byte[8192];
            final StringBuilder line = new StringBuilder();
            for (int n; (n = in.read(buffer)) > 0; )
            {
                final String text = new String(buffer, 0, n, StandardCharsets.UTF_8);
                output.append(text);
                if (echoPrefix != null)
                {
                    line.append(text);
                    for (int newline; (newline = line.indexOf("\n")) >= 0; line.delete(0, newline + 1))
                    {
                        System.out.println(echoPrefix + line.substring(0, newline));
                    }
                }
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
