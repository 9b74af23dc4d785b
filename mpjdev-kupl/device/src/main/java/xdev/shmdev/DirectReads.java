package xdev.shmdev;

import java.lang.foreign.MemorySegment;

import kupl.CpuBinding;
import xdev.XDevException;

/**
 * Whether large messages are copied straight from the sender's memory ({@link ProcessMemory}),
 * and the copy itself. The kernel pins and copies the sender's pages one by one, several times
 * slower than the pipelined copy through the staging areas ({@link StagedTransfers}), but in one
 * call, where the pipeline hands every 64 KiB chunk from one process to the other: with more
 * ranks than cores, each hand-off waits for the scheduler to run the other rank. So by default
 * ({@code -Dxdev.shmdev.directReads=auto}) they are on only when the job's ranks outnumber the
 * cores (as {@code KUPL_SHM_WAIT_SPINS=auto} stops spinning then); {@code true} or {@code false}
 * decides for every job (docs/design.md, "The large-message path", has the figures). After the
 * first refusal (ptrace rules) they are off for good in this process, so that every later message
 * goes through the staging areas without trying again. Used under the device's lock.
 */
final class DirectReads
{
    /** {@code -Dxdev.shmdev.directReads=auto|true|false}: when large messages are read straight from the sender. */
    static final String PROPERTY = "xdev.shmdev.directReads";

    private boolean enabled;

    DirectReads(final boolean enabled)
    {
        this.enabled = enabled;
    }

    /**
     * As {@link #PROPERTY} says for a job of {@code ranks} on this machine's cores.
     *
     * @throws XDevException naming the property and its values, if it has another value.
     */
    static DirectReads configured(final int ranks)
    {
        final String value = System.getProperty(PROPERTY, "auto");
        return switch (value)
        {
            case "auto" -> new DirectReads(ranks > CpuBinding.availableCpus());
            case "true" -> new DirectReads(true);
            case "false" -> new DirectReads(false);
            default -> throw new XDevException("shm device: -D" + PROPERTY + "=" + value + " is not one of auto " +
                "(on when the job's ranks outnumber the cores), true or false");
        };
    }

    /** Whether this process offers its senders' addresses to receivers and reads from its senders. */
    boolean enabled()
    {
        return enabled;
    }

    /**
     * Copies {@code target.byteSize()} bytes from {@code address} in process {@code pid} into
     * {@code target}, if direct reads are on and {@code target} is native memory.
     *
     * @return false if the bytes must go through the staging areas instead.
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
            // Not allowed here (ptrace rules): this and every later message go through the staging areas.
            enabled = false;
            return false;
        }
    }
}
