package mpi.rma.internal.sync;

import mpi.rma.RmaException;

/**
 * How the signals of generalized active-target synchronisation (MPI-4.1 section 12.5.2) travel
 * between this process and one peer: on flag words in shared memory ({@link PscwFlags}) or by
 * messages ({@link PscwMessages}), chosen per peer across nodes ({@link PscwMixed}). {@link Pscw}
 * has checked the epochs and the group, orders memory around the calls (a full fence before a post
 * or complete, after a wait), and handles this process itself: a path is never given its own rank.
 *
 * <p>Matching is by count: the n-th start of an origin that names a target matches the n-th post of
 * that target that names the origin, and the n-th complete ends it. MPI's rules keep at most one
 * post ahead per pair (a target cannot post again before its wait returned, which needs the origin's
 * complete), so counts per pair are enough.
 */
public interface PscwPath
{
    /** Tells {@code origin} that this process exposes its memory to it (win.post); with noCheck it need not. */
    void post(String call, int origin, boolean noCheck);

    /** Waits for {@code target}'s next post to this process (win.start); with noCheck only counts it. */
    void start(String call, int target, boolean noCheck);

    /**
     * Tells {@code target} that this process's RMA calls of the access epoch are done (win.complete),
     * after every one of them; returns an access fault that a target of a dynamic window reported for
     * them (the signal is sent all the same), or null.
     */
    RmaException complete(String call, int target);

    /** Whether {@code origin} has completed for every post this process made to it (win.test). */
    boolean completed(String call, int origin);

    /** Returns once {@link #completed} holds (win.waitFor); fails naming a process that died meanwhile. */
    void awaitComplete(String call, int origin);
}
