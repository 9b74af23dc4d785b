package conformance;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import mpi.Intracomm;
import mpi.MPI;

/**
 * Runs cases one after the other in one MPI job, on every rank, and has rank 0 print each
 * case's outcome over all ranks ({@link ResultLines}).
 *
 * <p>Isolation: each case runs in a thread of its own on a fresh communicator. A case that
 * throws or fails a check ends only itself. A case that hangs (a rank waits in a fence that
 * another rank never reaches) is left behind after {@code timeoutMs}: its thread is a daemon
 * stuck on memory and a communicator nobody uses again, and the ranks go on. How a case ended
 * is agreed by the ranks' main threads over a control communicator that cases never touch, so
 * the agreement itself cannot be caught in a case's hang.
 */
final class CaseRunner
{
    /** Longest message, in characters, that a rank reports for one case. */
    static final int MESSAGE_CHARS = 400;

    private final Intracomm control;
    private final long timeoutMs;
    private final PrintStream out;
    private final Flavour flavour;
    private final int nodes;

    CaseRunner(final Intracomm control, final long timeoutMs, final PrintStream out, final Flavour flavour,
        final int nodes)
    {
        this.control = control;
        this.timeoutMs = timeoutMs;
        this.out = out;
        this.flavour = flavour;
        this.nodes = nodes;
    }

    /** Runs {@code cases}; returns how many did not end well. */
    int runAll(final List<Case> cases)
    {
        if (control.Rank() == 0)
        {
            cases.forEach(c -> out.println(ResultLines.meta(c)));
        }
        int bad = 0;
        for (final Case c : cases)
        {
            bad += runOne(c) ? 0 : 1;
        }
        if (control.Rank() == 0)
        {
            out.println(ResultLines.DONE + "\t" + cases.size() + "\t" + bad);
        }
        return bad;
    }

    private boolean runOne(final Case c)
    {
        final long start = System.nanoTime();
        final Local local;
        if (control.Size() < c.minProcesses())
        {
            local = new Local(Status.SKIP, "needs " + c.minProcesses() + " processes");
        }
        else if (!c.appliesTo(flavour))
        {
            local = new Local(Status.SKIP, Flavour.names(c.flavours()) + " only: " + c.flavourNote());
        }
        else if (nodes < c.minNodes())
        {
            local = new Local(Status.SKIP, "needs processes on " + c.minNodes() + " nodes (the simulated cluster)");
        }
        else
        {
            control.Barrier();
            local = runIsolated(c, (Intracomm)control.clone());
        }
        final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        return agree(c, local, millis);
    }

    private Local runIsolated(final Case c, final Intracomm comm)
    {
        final CaseContext context = new CaseContext(comm, flavour, nodes);
        final CompletableFuture<Local> done = new CompletableFuture<>();
        final Thread worker = new Thread(() ->
        {
            try
            {
                try
                {
                    c.body().run(context);
                }
                finally
                {
                    context.freeLeftovers();
                }
                done.complete(context.failures().isEmpty() ? new Local(Status.PASS, "") :
                    new Local(Status.FAIL, String.join("; ", context.failures())));
            }
            catch (final Throwable e)
            {
                final String checks = context.failures().isEmpty() ? "" : " (after: " +
                    String.join("; ", context.failures()) + ")";
                done.complete(new Local(Status.ERROR, "rank " + context.rank() + " threw " + e + where(e) + checks));
            }
        }, "case " + c.id());
        worker.setDaemon(true);
        worker.start();
        try
        {
            return done.get(timeoutMs, TimeUnit.MILLISECONDS);
        }
        catch (final TimeoutException e)
        {
            final String checks = context.failures().isEmpty() ? "" : " (failed before: " +
                String.join("; ", context.failures()) + ")";
            return new Local(Status.TIMEOUT, "rank " + context.rank() + " still running after " + timeoutMs + " ms at " +
                topFrame(worker) + checks);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return new Local(Status.ERROR, "rank " + context.rank() + " interrupted");
        }
        catch (final ExecutionException e)
        {
            return new Local(Status.ERROR, "rank " + context.rank() + ": " + e.getCause());
        }
    }

    /** Every rank's status and message to rank 0, which prints the worst with the first message that explains it. */
    private boolean agree(final Case c, final Local local, final long millis)
    {
        final int ranks = control.Size();
        final int[] statuses = new int[ranks];
        control.Allgather(new int[] {local.status.ordinal()}, 0, 1, MPI.INT, statuses, 0, 1, MPI.INT);
        final char[] message = new char[MESSAGE_CHARS];
        final String text = local.message.length() > MESSAGE_CHARS ? local.message.substring(0, MESSAGE_CHARS - 3) + "..." :
            local.message;
        text.getChars(0, text.length(), message, 0);
        final char[] messages = new char[MESSAGE_CHARS * ranks];
        control.Gather(message, 0, MESSAGE_CHARS, MPI.CHAR, messages, 0, MESSAGE_CHARS, MPI.CHAR, 0);
        Status worst = Status.PASS;
        for (final int status : statuses)
        {
            worst = worst.worse(Status.values()[status]);
        }
        if (control.Rank() == 0)
        {
            final List<String> explanations = new ArrayList<>();
            for (int rank = 0; rank < ranks; rank++)
            {
                if (statuses[rank] != Status.PASS.ordinal())
                {
                    final String m = new String(messages, rank * MESSAGE_CHARS, MESSAGE_CHARS).trim()
                        .replace("\0", "");
                    if (!m.isEmpty() && !explanations.contains(m))
                    {
                        explanations.add(m);
                    }
                }
            }
            out.println(ResultLines.result(c.id(), worst, millis, String.join(" | ", explanations)));
            out.flush();
        }
        return worst.isGood();
    }

    private static String where(final Throwable e)
    {
        for (final StackTraceElement frame : e.getStackTrace())
        {
            if (frame.getClassName().startsWith("conformance."))
            {
                return " at " + frame.getFileName() + ":" + frame.getLineNumber();
            }
        }
        return "";
    }

    private static String topFrame(final Thread thread)
    {
        final StackTraceElement[] frames = thread.getStackTrace();
        for (final StackTraceElement frame : frames)
        {
            if (frame.getClassName().startsWith("conformance.") || frame.getClassName().startsWith("mpi.rma."))
            {
                return frame.getClassName() + "." + frame.getMethodName() + ":" + frame.getLineNumber();
            }
        }
        return frames.length > 0 ? frames[0].toString() : "?";
    }

    /** One rank's outcome of one case. */
    private record Local(Status status, String message)
    {
    }

    static PrintStream utf8(final PrintStream stream)
    {
        return new PrintStream(stream, true, StandardCharsets.UTF_8);
    }
}
