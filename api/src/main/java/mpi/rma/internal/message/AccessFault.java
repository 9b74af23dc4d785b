package mpi.rma.internal.message;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;

/**
 * An access to a dynamic window that does not lie within memory attached at the target (one region,
 * or regions that touch; {@link AttachedRegions#span}): memory detached or never attached, or a run
 * past the end of what is attached. Nothing of such an access is applied. The target reports it to the origin, which throws
 * {@link ErrorClass#ERR_RMA_RANGE} naming the target and the address: at once for an access with a
 * reply (get, get-accumulate, compare-and-swap), else with the acknowledgement of the origin's next
 * flush, unlock or fence ({@link TargetAgent}).
 *
 * <p>On the wire (an acknowledgement, or the status before a reply) a fault is four longs after
 * the kind and the count of faults ({@link RmaRequest#ACK_LONGS}):
 * <pre>
 * | kind | faults (0: none) | address | bytes | region base (-1: none there) | region bytes |
 * </pre>
 */
public final class AccessFault extends RuntimeException
{
    /** The region base of a fault where no region covers the address. */
    static final long NO_REGION = -1;

    private static final long serialVersionUID = 1L;

    private final long address;
    private final long bytes;
    private final long regionBase;
    private final long regionBytes;

    AccessFault(final ErrorClass errorClass, final long address, final long bytes, final long regionBase,
        final long regionBytes)
    {
        // No stack trace: the agent turns it into a message to the origin.
        super(errorClass.name(), null, false, false);
        this.address = address;
        this.bytes = bytes;
        this.regionBase = regionBase;
        this.regionBytes = regionBytes;
    }

    /** An acknowledgement of {@code kind} that reports {@code fault} ({@code faults} of them), or none if null. */
    static long[] acknowledgement(final long kind, final AccessFault fault, final long faults)
    {
        final long[] ack = new long[RmaRequest.ACK_LONGS];
        ack[RmaRequest.ACK_KIND] = kind;
        if (fault != null)
        {
            ack[RmaRequest.ACK_FAULTS] = faults;
            ack[RmaRequest.ACK_ADDRESS] = fault.address;
            ack[RmaRequest.ACK_BYTES] = fault.bytes;
            ack[RmaRequest.ACK_REGION_BASE] = fault.regionBase;
            ack[RmaRequest.ACK_REGION_BYTES] = fault.regionBytes;
        }
        return ack;
    }

    /** The fault an acknowledgement reports, or null. */
    static AccessFault of(final long[] ack)
    {
        return ack[RmaRequest.ACK_FAULTS] == 0 ? null : new AccessFault(ErrorClass.ERR_RMA_RANGE,
            ack[RmaRequest.ACK_ADDRESS], ack[RmaRequest.ACK_BYTES], ack[RmaRequest.ACK_REGION_BASE],
            ack[RmaRequest.ACK_REGION_BYTES]);
    }

    /** The error {@code call} throws for an access of its own to {@code target} that faulted. */
    RmaException immediate(final String call, final int target)
    {
        return new RmaException(ErrorClass.ERR_RMA_RANGE, call + ": rank " + target + " " + where() +
            "; nothing was read or written" + rule());
    }

    /**
     * The error a synchronisation ({@code call}) throws for {@code faults} earlier puts or
     * accumulates of this process to {@code target} that faulted, this the first; {@code more}
     * ends the message.
     */
    RmaException deferred(final String call, final int target, final long faults, final String more)
    {
        return new RmaException(ErrorClass.ERR_RMA_RANGE, call + ": an earlier put or accumulate of this process " +
            "to rank " + target + " was not applied: rank " + target + " " + where() +
            (faults > 1 ? " (and " + (faults - 1) + " more such accesses since the last synchronisation)" : "") +
            rule() + more);
    }

    private String where()
    {
        if (regionBase == NO_REGION)
        {
            return "has no memory attached at address " + address + " (" + bytes + " bytes): it was detached, or " +
                "never attached (addresses are never reused)";
        }
        return "has " + regionBytes + " bytes attached at address " + regionBase + ", and " + bytes +
            " bytes at address " + address + " run past their end";
    }

    private static String rule()
    {
        return " (MPI-4.1 section 12.2.4: a dynamic window's target memory must be attached for every access)";
    }
}
