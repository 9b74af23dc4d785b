package kupl;

import java.util.ArrayList;
import java.util.List;

/**
 * A read-only view of the recursive-doubling fence's schedule, the one {@link ShmWin#fence()}
 * runs with {@code KUPL_SHM_FENCE_ALGORITHM=2}: what each process signals and waits for, round by
 * round. For documentation and teaching (the samples draw it); the fence itself does not use this.
 */
public final class RecursiveDoublingSteps
{
    private RecursiveDoublingSteps()
    {
    }

    /**
     * One step of one process's fence.
     *
     * @param rank  the process taking the step.
     * @param round 0 for the pre round (extra processes hand in), 1 to {@link #rounds(int)} for the
     *              pairwise rounds, {@code rounds + 1} for the post round (extra processes released).
     * @param isWait true if the process waits for {@code peer}'s signal, false if it signals {@code peer}.
     * @param peer  the process on the other side of the step.
     */
    public record Step(int rank, int round, boolean isWait, int peer)
    {
    }

    /** Number of pairwise rounds for {@code ranks} processes: log2 of the largest power of two not above it. */
    public static int rounds(final int ranks)
    {
        checkRanks(ranks);
        return RecursiveDoublingSchedule.rounds(ranks);
    }

    /** The steps of process {@code rank} in a fence of {@code ranks} processes, in the order it takes them. */
    public static List<Step> of(final int ranks, final int rank)
    {
        checkRanks(ranks);
        if (rank < 0 || rank >= ranks)
        {
            throw new IllegalArgumentException("rank=" + rank + " is not a rank of " + ranks + " processes: give 0 to " +
                (ranks - 1));
        }
        final ControlDescriptor layout = new ControlDescriptor(ranks);
        final RecursiveDoublingSchedule schedule = RecursiveDoublingSchedule.forRank(rank, layout);
        final List<Step> steps = new ArrayList<>(schedule.stepCount());
        for (int i = 0; i < schedule.stepCount(); i++)
        {
            // A flag's slot is its round: the schedule addresses flags by (owner, slot) in the control object.
            final long slotIndex = (schedule.flagOffset(i) - ControlDescriptor.RD_FLAGS_OFFSET) /
                ControlDescriptor.WORD_PAD_BYTES;
            final int round = (int)(slotIndex % layout.rdSlotsPerRank());
            steps.add(new Step(rank, round, schedule.isWait(i), schedule.peer(i)));
        }
        return List.copyOf(steps);
    }

    private static void checkRanks(final int ranks)
    {
        if (ranks < 1)
        {
            throw new IllegalArgumentException("ranks=" + ranks + ": give 1 or more processes");
        }
    }
}
