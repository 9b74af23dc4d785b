package mpjrun;

import mpi.MPI;

/**
 * A tiny MPJ Express program for the launcher's tests: each rank contributes {@code rank * rank + 1}
 * to an Allgather, checks every value and prints {@code rank R of N: allgather ok}. Its first
 * argument picks a way to fail:
 * <ul>
 * <li>{@code throw}: the last rank throws after Finalize (MPJ Express's starter still exits with 0);</li>
 * <li>{@code hang}: rank 0 sleeps before the Allgather, so the job never ends by itself;</li>
 * <li>{@code kill9}: rank 0 kills its own JVM with SIGKILL before the Allgather (in multicore, every
 *     rank's JVM);</li>
 * <li>{@code exit3}: the last rank calls {@code System.exit(3)} after Finalize;</li>
 * <li>{@code exit0}: the last rank calls {@code System.exit(0)} before the Allgather, which the others wait in;</li>
 * <li>{@code exit0AtEnd}: every rank calls {@code System.exit(0)} after Finalize (a success);</li>
 * <li>{@code caught}: every rank catches an exception and prints its name and a stack frame, then goes on
 *     (a success: the launcher must not judge by the output).</li>
 * </ul>
 */
public final class HelloAllgather
{
    public static final String OK_LINE = "allgather ok";

    private HelloAllgather()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String[] appArgs = MPI.Init(args);
        final String mode = appArgs.length > 0 ? appArgs[0] : "";
        final int rank = MPI.COMM_WORLD.Rank();
        final int size = MPI.COMM_WORLD.Size();
        if (mode.equals("hang") && rank == 0)
        {
            Thread.sleep(600_000);
        }
        if (mode.equals("kill9") && rank == 0)
        {
            new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
            Thread.sleep(600_000);
        }
        if (mode.equals("exit0") && rank == size - 1)
        {
            System.exit(0);
        }
        if (mode.equals("caught"))
        {
            try
            {
                throw new IllegalStateException("rank " + rank + " expected this");
            }
            catch (final IllegalStateException e)
            {
                System.out.println("caught: " + e);
                System.out.println("\tat " + e.getStackTrace()[0]);
            }
        }
        final int[] all = new int[size];
        MPI.COMM_WORLD.Allgather(new int[] {rank * rank + 1}, 0, 1, MPI.INT, all, 0, 1, MPI.INT);
        for (int peer = 0; peer < size; peer++)
        {
            if (all[peer] != peer * peer + 1)
            {
                throw new IllegalStateException("rank " + rank + ": Allgather gave " + all[peer] + " for rank " +
                    peer + ", expected " + (peer * peer + 1));
            }
        }
        System.out.println("rank " + rank + " of " + size + ": " + OK_LINE);
        MPI.Finalize();
        if (mode.equals("throw") && rank == size - 1)
        {
            throw new IllegalStateException("rank " + rank + " fails on purpose");
        }
        if (mode.equals("exit3") && rank == size - 1)
        {
            System.exit(3);
        }
        if (mode.equals("exit0AtEnd"))
        {
            System.exit(0);
        }
    }
}
