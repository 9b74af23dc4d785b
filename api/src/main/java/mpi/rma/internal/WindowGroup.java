package mpi.rma.internal;

import java.util.Arrays;

import mpi.Group;
import mpi.Intracomm;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;

/**
 * The ranks in a window of the processes of a group ({@code Win.post}, {@code Win.start}): MPJ
 * Express's {@code Group.Translate_ranks} into the window's group, checked and sorted. The last group
 * asked about is remembered by identity, since a program passes the same group epoch after epoch.
 */
public final class WindowGroup
{
    private final Intracomm comm;
    /** The window's group, made on first use. */
    private Group windowGroup;
    private Group lastGroup;
    private int[] lastRanks;

    public WindowGroup(final Intracomm comm)
    {
        this.comm = comm;
    }

    /**
     * The window ranks of {@code group}'s processes, ascending.
     *
     * @throws RmaException ERR_GROUP if {@code group} is null or holds a process outside the window.
     */
    public int[] ranksOf(final String call, final Group group)
    {
        if (group == null)
        {
            throw new RmaException(ErrorClass.ERR_GROUP, call + ": group is null: give a group of the window's " +
                "processes, e.g. win.getGroup().Incl(new int[] {left, right})");
        }
        if (group == lastGroup)
        {
            return lastRanks;
        }
        final int size = group.Size();
        final int[] ranks;
        if (size <= 0)
        {
            ranks = new int[0];
        }
        else
        {
            final int[] members = new int[size];
            Arrays.setAll(members, i -> i);
            if (windowGroup == null)
            {
                windowGroup = comm.Group();
            }
            ranks = Group.Translate_ranks(group, members, windowGroup);
            final int windowSize = comm.Size();
            for (int i = 0; i < size; i++)
            {
                if (ranks[i] < 0 || ranks[i] >= windowSize)
                {
                    throw new RmaException(ErrorClass.ERR_GROUP, call + ": process " + i + " of the group is not " +
                        "in the window's communicator: the group must be a subgroup of win.getGroup() (build it with " +
                        "win.getGroup().Incl(ranks))");
                }
            }
            Arrays.sort(ranks);
        }
        lastGroup = group;
        lastRanks = ranks;
        return ranks;
    }
}
