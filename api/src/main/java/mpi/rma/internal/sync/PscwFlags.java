package mpi.rma.internal.sync;

import java.lang.foreign.MemorySegment;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.shared.ClientArea;
import mpi.rma.spi.SharedMemory;

/**
 * Post and complete as flag words in the window's client area ({@link ClientArea}), for the peers
 * whose memory this process maps: a post is one release store of the target's count of posts in the
 * origin's row, a complete one release store of the origin's count of completes in the target's row;
 * start and wait load them with acquire until they reach the count this process expects. No message,
 * no lock, no read-modify-write: each word has one writer and only grows. Waiting goes through the
 * provider's {@link SharedMemory#awaitCondition}, which backs off and fails naming a process that died.
 */
public final class PscwFlags implements PscwPath
{
    private final SharedMemory memory;
    private final MemorySegment area;
    private final int rank;
    private final int ranks;
    /** The window's rank of each peer, for messages (the node's ranks differ on a window across nodes). */
    private final int[] names;
    /** Posts this process made to each origin: the completes it waits for from it. */
    private final long[] postsTo;
    /** Starts of this process that named each target: the posts it waits for from it. */
    private final long[] startsTo;
    private final long[] completesTo;

    public PscwFlags(final SharedMemory memory, final int rank, final int ranks, final int[] names)
    {
        this.memory = memory;
        this.area = memory.clientArea();
        this.rank = rank;
        this.ranks = ranks;
        this.names = names;
        this.postsTo = new long[ranks];
        this.startsTo = new long[ranks];
        this.completesTo = new long[ranks];
        final long required = ClientArea.requiredBytes(ranks);
        if (area.byteSize() < required)
        {
            throw new RmaException(ErrorClass.ERR_OTHER, "the shared-memory provider's client area has " +
                area.byteSize() + " bytes; a window of " + ranks + " processes needs " + required +
                " (see mpi.rma.spi.SharedMemory#clientArea)");
        }
    }

    /** Named as themselves: every peer's rank in the window is its index here. */
    public static int[] identity(final int ranks)
    {
        final int[] names = new int[ranks];
        for (int peer = 0; peer < ranks; peer++)
        {
            names[peer] = peer;
        }
        return names;
    }

    @Override
    public void post(final String call, final int origin, final boolean noCheck)
    {
        // Release: publishes this process's stores before its post (Pscw fenced them) to the origin's acquire
        // load. Counted with noCheck too, so that the counts stay in step whatever the assertions.
        ClientArea.setRelease(area, ClientArea.postWordOffset(ranks, origin, rank), ++postsTo[origin]);
    }

    @Override
    public void start(final String call, final int target, final boolean noCheck)
    {
        final long expected = ++startsTo[target];
        if (noCheck)
        {
            // The program asserts that the post has happened: MODE_NOCHECK's saving is this wait.
            return;
        }
        final long offset = ClientArea.postWordOffset(ranks, rank, target);
        if (ClientArea.getAcquire(area, offset) < expected)
        {
            memory.awaitCondition(() -> ClientArea.getAcquire(area, offset) >= expected,
                "the win.post of rank " + names[target] + " (" + call + ")");
        }
    }

    @Override
    public RmaException complete(final String call, final int target)
    {
        // Release: this process's puts to the target were stores, fenced by Pscw; the target's acquire load
        // in its wait sees them.
        ClientArea.setRelease(area, ClientArea.completeWordOffset(ranks, target, rank), ++completesTo[target]);
        return null;
    }

    @Override
    public boolean completed(final String call, final int origin)
    {
        return ClientArea.getAcquire(area, ClientArea.completeWordOffset(ranks, rank, origin)) >= postsTo[origin];
    }

    @Override
    public void awaitComplete(final String call, final int origin)
    {
        if (!completed(call, origin))
        {
            memory.awaitCondition(() -> completed(call, origin), "the win.complete of rank " + names[origin] +
                " (" + call + ")");
        }
    }
}
