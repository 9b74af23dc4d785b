package xdev.shmdev;

import java.lang.foreign.MemorySegment;

/**
 * Whether large messages are copied straight from the sender's memory ({@link ProcessMemory}),
 * and the copy itself. On by default ({@code -Dxdev.shmdev.directReads=false} turns it off); off
 * for good in this process after the first refusal (ptrace rules), so that every later message
 * streams through the queues without trying again. Used under the device's lock.
 */
final class DirectReads
{
    /** {@code -Dxdev.shmdev.directReads=false} streams every large message through the queues. */
    static final String PROPERTY = "xdev.shmdev.directReads";

    private boolean enabled = !"false".equals(System.getProperty(PROPERTY));

    /** Whether this process offers its senders' addresses to receivers and reads from its senders. */
    boolean enabled()
    {
        return enabled;
    }

    /**
     * Copies {@code target.byteSize()} bytes from {@code address} in process {@code pid} into
     * {@code target}, if direct reads are on and {@code target} is native memory.
     *
     * @return false if the bytes must be streamed through the queue instead.
     */
    boolean tryRead(final long pid, final long address, final MemorySegment target)
    {
        if (!enabled || address == 0 || !target.isNative())
        {
            return false;
        }
        try
        {
            ProcessMemory.read(pid, address, target);
            return true;
        }
        catch (final ProcessMemory.ReadFailedException e)
        {
            // Not allowed here (ptrace rules): stream this and every later message.
            enabled = false;
            return false;
        }
    }
}
