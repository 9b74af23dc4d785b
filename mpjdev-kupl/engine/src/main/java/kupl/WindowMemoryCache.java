package kupl;

/**
 * The memory of a comm's last freed window, kept for its next window: a program that makes a
 * window per phase then pays for shared objects, page reservations and mappings only when a
 * window outgrows the kept one (see {@link WindowMemory};
 * docs/design.md#a-comm-keeps-its-last-windows-memory).
 *
 * <p><b>What it holds on to.</b> At most one window's memory, and only up to
 * {@value #MAX_KEPT_BYTES} bytes mapped by this process: a larger window gives its pages back at
 * free, as it always did. A window that does not fit releases the kept memory before it makes
 * its own, so a comm never holds two windows' worth of pages for one window; destroying the comm
 * releases it too. Whatever way the process ends, the pages go back to the system with its
 * mappings (the objects have no name).
 *
 * <p>Every process keeps and releases in the same collective calls (allocation and free are
 * collective, in the same order on every process), so the kept memory is the same everywhere;
 * {@link ShmWin} still checks that every process holds it before reusing it.
 */
final class WindowMemoryCache
{
    /** Mapped bytes per process above which a freed window's memory is released, not kept. */
    static final long MAX_KEPT_BYTES = 64L << 20;

    private WindowMemory kept;
    private long lastId;

    /** The next memory's number: every process counts the memories its comm made, so all agree. */
    synchronized long nextId()
    {
        return ++lastId;
    }

    /** The kept memory, still kept; null if none. */
    synchronized WindowMemory peek()
    {
        return kept;
    }

    /** Hands the kept memory over to a new window. */
    synchronized WindowMemory take()
    {
        final WindowMemory taken = kept;
        kept = null;
        return taken;
    }

    /** Whether {@link #keep} would keep this memory rather than release it. */
    static boolean wouldKeep(final WindowMemory memory)
    {
        return memory.mappedBytes() <= MAX_KEPT_BYTES;
    }

    /** Keeps the memory of a window whose free completed (releasing any kept before), or releases it if large. */
    synchronized void keep(final WindowMemory memory)
    {
        release();
        if (wouldKeep(memory))
        {
            kept = memory;
        }
        else
        {
            memory.close();
        }
    }

    /** Releases the kept memory, if any: its pages go back to the system unless another process still maps them. */
    synchronized void release()
    {
        if (kept != null)
        {
            kept.close();
            kept = null;
        }
    }
}
