package mpi.rma.internal.sync;

import java.util.Arrays;

import mpi.MPI;
import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.Epochs;

/**
 * This process's generalized active-target epochs on one window (MPI-4.1 section 12.5.2): the
 * access epoch that {@code Win.start} opens and {@code Win.complete} closes, with the group of
 * targets it may access, and the exposure epoch that {@code Win.post} opens and {@code Win.waitFor}
 * (or a {@code Win.test} that returns true) closes, with the group of origins it waits for. Both
 * may be open at once. Every misuse is {@link ErrorClass#ERR_RMA_SYNC} saying what to call;
 * {@link Epochs} asks here before it opens a fence or lock epoch.
 */
public final class PscwEpochs
{
    /** Membership of the access epoch's group, by rank; null while no access epoch is open. */
    private boolean[] accessMembers;
    private int[] accessGroup;
    /** The exposure epoch's group; null while no exposure epoch is open. */
    private int[] exposureGroup;
    private final int ranks;

    public PscwEpochs(final int ranks)
    {
        this.ranks = ranks;
    }

    public boolean accessOpen()
    {
        return accessGroup != null;
    }

    boolean exposureOpen()
    {
        return exposureGroup != null;
    }

    /** Whether the access epoch lets this process reach {@code target} (a rank or PROC_NULL). */
    public boolean grants(final int target)
    {
        return accessMembers != null && (target == MPI.PROC_NULL || accessMembers[target]);
    }

    /** Why an RMA call to {@code target} is refused while the access epoch is open; null if none is. */
    public String refusal(final int target)
    {
        return accessGroup == null ? null : "rank " + target + " is not in the group given to win.start " +
            describe(accessGroup) + ": call win.complete() and win.start with a group that includes it";
    }

    public void checkStart()
    {
        if (accessGroup != null)
        {
            throw sync("Win.start: an access epoch from win.start " + describe(accessGroup) + " is already open: " +
                "call win.complete() first");
        }
    }

    public void started(final int[] group)
    {
        accessGroup = group;
        accessMembers = new boolean[ranks];
        for (final int target : group)
        {
            accessMembers[target] = true;
        }
    }

    /** Returns the access epoch's group; throws unless one is open. */
    public int[] checkComplete()
    {
        if (accessGroup == null)
        {
            throw sync("Win.complete: no access epoch from win.start is open: call win.start(group, 0) first");
        }
        return accessGroup;
    }

    public void completed()
    {
        accessGroup = null;
        accessMembers = null;
    }

    public void checkPost()
    {
        if (exposureGroup != null)
        {
            throw sync("Win.post: an exposure epoch from win.post " + describe(exposureGroup) + " is already open: " +
                "call win.waitFor() (or win.test() until it returns true) first");
        }
    }

    public void posted(final int[] group)
    {
        exposureGroup = group;
    }

    /** Returns the exposure epoch's group; throws unless one is open. */
    public int[] checkWait(final String call)
    {
        if (exposureGroup == null)
        {
            throw sync(call + ": no exposure epoch from win.post is open: call win.post(group, 0) first");
        }
        return exposureGroup;
    }

    public void waited()
    {
        exposureGroup = null;
    }

    /** What is open, for the messages of fence, lock and free; null if nothing is. */
    public String openText()
    {
        if (accessGroup == null && exposureGroup == null)
        {
            return null;
        }
        final String access = accessGroup == null ? null : accessText() + " (end it with win.complete())";
        final String exposure = exposureGroup == null ? null : "an exposure epoch from win.post " +
            describe(exposureGroup) + " (end it with win.waitFor())";
        return access == null ? exposure : exposure == null ? access : access + " and " + exposure;
    }

    /** The access epoch, in words (while one is open). */
    public String accessText()
    {
        return "an access epoch from win.start " + describe(accessGroup);
    }

    private static String describe(final int[] group)
    {
        return "to ranks " + Arrays.toString(group);
    }

    private static RmaException sync(final String message)
    {
        return new RmaException(ErrorClass.ERR_RMA_SYNC, message);
    }
}
