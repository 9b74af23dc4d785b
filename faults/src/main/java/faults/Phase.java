package faults;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The phases of an MPI-3 RMA program in which {@link FaultInjection} kills a rank, each under the name
 * {@code bin/faults --phase} takes.
 */
public enum Phase
{
    /** {@code Win.allocateShared} of 1 MiB per rank, over and over (each window freed outside the phase). */
    ALLOCATION("allocation"),
    /** {@code Win.fence} with a put to the right neighbour between fences. */
    FENCE("fence"),
    /** {@code Sendrecv} of {@value FaultRank#LARGE_MESSAGE_BYTES} bytes around a ring (point-to-point only). */
    LARGE_MESSAGE("large-message"),
    /** Exclusive lock, put and unlock on rank 0's segment by every rank, a fence every few epochs. */
    LOCK_EPOCH("lock-epoch"),
    /** {@code Win.free} of a 1 MiB window (each window allocated outside the phase). */
    FREE("free"),
    /**
     * {@code Bcast} of 1 MiB from a root that moves round the ranks, {@code Allreduce} of 8 doubles and
     * {@code Barrier}, over and over (point-to-point only; on shm, through the shared-memory collectives).
     */
    COLLECTIVES("collectives"),
    /**
     * Exclusive lock, accumulate and unlock on every rank's segment in turn, by every rank but the victim, never a
     * fence, on a window of {@code Win.allocateShared}; the victim computes, a passive target that holds no lock
     * when it dies. Within a node the accumulates are loads and stores of the target's memory, and an uncontended
     * lock takes no wait: only a check that needs no wait finds the death.
     */
    PASSIVE_SHARED("passive-shared"),
    /** As {@link #PASSIVE_SHARED} on a window of {@code Win.allocate} (library memory: loads and stores too). */
    PASSIVE_ALLOCATE("passive-allocate"),
    /** As {@link #PASSIVE_SHARED} on a window of {@code Win.create} (the user's array: reached by messages). */
    PASSIVE_CREATE("passive-create");

    private final String cliName;

    Phase(final String cliName)
    {
        this.cliName = cliName;
    }

    /** The name {@code --phase} takes and the table prints. */
    public String cliName()
    {
        return cliName;
    }

    /**
     * The phase called {@code name} on the command line.
     *
     * @throws IllegalArgumentException naming the bad value and the known phases.
     */
    public static Phase named(final String name)
    {
        for (final Phase phase : values())
        {
            if (phase.cliName.equals(name))
            {
                return phase;
            }
        }
        throw new IllegalArgumentException("phase=" + name + " is not one of " +
            Arrays.stream(values()).map(Phase::cliName).collect(Collectors.joining(", ")));
    }
}
