package bench.apps;

import mpi.Intracomm;
import mpi.MPIException;

/**
 * One application kernel as every rank runs it: data made before the clock starts, the
 * parallel kernel that is timed, and a check of its result that is not.
 *
 * <p>{@link KernelRank} calls, on every rank and for each repetition, {@link #setUp}, then
 * {@link #run} between two barriers (the time rank 0 sees between them is the kernel time, as
 * the Java Grande benchmarks print it), then {@link #validate}. All three are collective.
 */
interface Kernel
{
    /** Makes the input of one run (the same on every repetition), untimed. */
    void setUp(Intracomm comm) throws MPIException;

    /** The parallel kernel: the only part that is timed. */
    void run(Intracomm comm) throws MPIException;

    /**
     * Checks the result of the last {@link #run} against a serial computation or an invariant.
     * Collective; only rank 0's answer counts (the others may return null).
     */
    Check validate(Intracomm comm) throws MPIException;

    /** The clock of the time this rank's {@link #run} spends in its MPI calls. */
    CommunicationClock communication();

    /** Whether a result passed, and what was compared (printed in either case). */
    record Check(boolean passed, String detail)
    {
    }
}
