package mpi.rma.internal.creation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import kupl.PeerDeathException;
import kupl.ShmComm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.RmaException;
import mpi.rma.Win;
import mpi.rma.kupl.CommunicatorOob;

/**
 * The last rank (the victim) does its part of the collective steps of a shared window up to
 * {@code step} by hand, then dies; the others then run into {@code step} and must fail with
 * ERR_PROC_FAILED naming it. In package {@code mpi.rma.internal.creation} to take the allocation's first step,
 * {@link AllocationAgreement}, by hand.
 *
 * <p>App arguments: the step, one of {@code agreement} (the victim dies at once),
 * {@code comm} (after the agreement), {@code alloc} (after the engine comm's creation),
 * {@code fence} (after the allocation), {@code free} (before the fence that starts a free, its one collective step); and
 * how the victim dies: {@code halt} ({@code Runtime.halt(0)}, its own process, without
 * {@code MPI.Finalize}) or {@code return}
 * (it returns from {@code main}, a thread of a multicore job).
 *
 * <p>Each survivor prints {@code rank R STEP FAILED: <class> <message>} and
 * {@code rank R CAUSES: <cause chain>}, and halts once every survivor has reported.
 */
public final class ProcessFailureProgram
{
    /** The environment variable naming an empty directory where the survivors mark their reports. */
    public static final String REPORTS_VARIABLE = "PROCFAIL_REPORTS_DIR";

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final String step = appArgs[0];
        final Intracomm comm = MPI.COMM_WORLD;
        final int rank = comm.Rank();
        final int victim = comm.Size() - 1;
        if (rank == victim)
        {
            doPartUpTo(step, comm);
            System.out.println("rank " + rank + " dies before " + step);
            System.out.flush();
            if ("halt".equals(appArgs[1]))
            {
                // Status 0: bin/mpjrun stops a job at its first failing rank, which would kill the survivors too.
                Runtime.getRuntime().halt(0);
            }
            return;
        }
        try
        {
            final Win win = "fence".equals(step) || "free".equals(step) ? Win.allocateShared(8, 8, null, comm) : null;
            switch (step)
            {
                case "fence" -> win.fence(0);
                case "free" -> win.free();
                default -> Win.allocateShared(8, 8, null, comm);
            }
            System.out.println("rank " + rank + " STEP SUCCEEDED although rank " + victim + " died");
        }
        catch (final RmaException e)
        {
            System.out.println("rank " + rank + " STEP FAILED: " + e.errorClass() + " " +
                e.getMessage().replace('\n', ' '));
            System.out.println("rank " + rank + " CAUSES: " + causes(e));
        }
        System.out.flush();
        // A job with a dead rank cannot finalize: leave by halting, but only once every survivor has reported, or a
        // survivor still waiting would find this one gone and (rightly) name it.
        awaitEverySurvivorsReport(rank, victim);
        Runtime.getRuntime().halt(0);
    }

    /**
     * Marks this survivor's report with a file in {@value #REPORTS_VARIABLE} and waits (30 s at
     * most) for the other survivors' marks. Files, not MPI: the device may refuse every call
     * after a death, and in a multicore job every rank has a class loader of its own.
     */
    private static void awaitEverySurvivorsReport(final int rank, final int survivors) throws Exception
    {
        final Path reports = Path.of(System.getenv(REPORTS_VARIABLE));
        Files.createFile(reports.resolve("reported-" + rank));
        final long deadlineNs = System.nanoTime() + 30_000_000_000L;
        while (countReports(reports) < survivors && System.nanoTime() - deadlineNs < 0)
        {
            Thread.sleep(10);
        }
    }

    private static long countReports(final Path reports) throws IOException
    {
        try (Stream<Path> marks = Files.list(reports))
        {
            return marks.count();
        }
    }

    /** The victim's part of every collective step before {@code step}, done as the others do it. */
    private static void doPartUpTo(final String step, final Intracomm comm)
    {
        switch (step)
        {
            case "agreement" ->
            {
            }
            case "comm" -> AllocationAgreement.reach(comm, 8, 8, false, null, 0);
            case "alloc" ->
            {
                AllocationAgreement.reach(comm, 8, 8, false, null, 0);
                ShmComm.create(comm.Size(), comm.Rank(), ProcessHandle.current().pid(), new CommunicatorOob(), comm);
            }
            case "fence" -> Win.allocateShared(8, 8, null, comm);
            // Win.free's one collective step is its fence (the engine's free then waits for nobody): the victim dies
            // before it, so the survivors' free finds the death there.
            case "free" -> Win.allocateShared(8, 8, null, comm);
            default -> throw new IllegalArgumentException("step=" + step + " is not agreement, comm, alloc, fence " +
                "or free");
        }
    }

    /** The cause chain, a class name per link, with the dead rank of a {@link PeerDeathException}. */
    private static String causes(final Throwable failure)
    {
        final List<String> links = new ArrayList<>();
        for (Throwable link = failure.getCause(); link != null && links.size() < 16; link = link.getCause())
        {
            links.add(link.getClass().getName() +
                (link instanceof PeerDeathException death ? "(deadRank=" + death.deadRank() + ")" : ""));
        }
        return String.join(" <- ", links);
    }
}
