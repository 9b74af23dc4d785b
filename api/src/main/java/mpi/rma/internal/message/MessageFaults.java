package mpi.rma.internal.message;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import mpi.rma.ErrorClass;
import mpi.rma.RmaException;
import mpi.rma.internal.shared.AtomicElements;
import mpi.rma.spi.MessagePathFault;

/**
 * The {@link MessagePathFault} a test chose with {@value MessagePathFault#PROPERTY}, or none: read
 * once, when the message path first asks, so that the normal path pays one test of a constant.
 */
public final class MessageFaults
{
    /**
     * How long a torn accumulate pauses between its read and its write, so that concurrent ones overlap. A flushed
     * fetch-and-op from another rank takes a message round trip (tens of microseconds on multicore); with a 20 us
     * pause the target's own 15 local updates could all end before the first remote one arrived, and
     * fop.int-sum-increments passed by chance on createDynamic.
     */
    public static final long TORN_PAUSE_NS = 200_000;

    private MessageFaults()
    {
    }

    /** Whether the agent drops a put from {@code origin} (never without a fault chosen). */
    static boolean dropsPut(final int origin)
    {
        return Chosen.FAULT != null && Chosen.FAULT.dropsPut(origin);
    }

    /**
     * Whether accumulates leave their lock (never without a fault chosen): those the agent applies and, so that a
     * node's own origins can lose updates too, the element updates of shared memory ({@link AtomicElements}).
     */
    public static boolean tearsAccumulates()
    {
        return Chosen.FAULT != null && Chosen.FAULT.tearsAccumulates();
    }

    /** Whether win.start skips waiting for posts (never without a fault chosen). */
    public static boolean startsWithoutPost()
    {
        return Chosen.FAULT != null && Chosen.FAULT.startsWithoutPost();
    }

    /** Whether the agent applies derived target datatypes as dense blocks (never without a fault chosen). */
    static boolean ignoresTargetLayout()
    {
        return Chosen.FAULT != null && Chosen.FAULT.ignoresTargetLayout();
    }

    /** Whether the origin checks empty transfers as if they moved data (never without a fault chosen). */
    public static boolean refusesEmptyTransfers()
    {
        return Chosen.FAULT != null && Chosen.FAULT.refusesEmptyTransfers();
    }

    /** Whether attached regions get apart addresses even where their memory touches (never without a fault chosen). */
    static boolean separatesAttachedRegions()
    {
        return Chosen.FAULT != null && Chosen.FAULT.separatesAttachedRegions();
    }

    /** Whether attributes go without their delete callbacks (never without a fault chosen). */
    public static boolean skipsDeleteCallbacks()
    {
        return Chosen.FAULT != null && Chosen.FAULT.skipsDeleteCallbacks();
    }

    /** Whether failing window calls skip the error handler (never without a fault chosen). */
    public static boolean skipsErrhandlers()
    {
        return Chosen.FAULT != null && Chosen.FAULT.skipsErrhandlers();
    }

    /** Initialised on first use: a fault named but not found fails the first RMA call that asks, saying why. */
    private static final class Chosen
    {
        static final MessagePathFault FAULT = find();

        private static MessagePathFault find()
        {
            final String wanted = System.getProperty(MessagePathFault.PROPERTY);
            if (wanted == null)
            {
                return null;
            }
            final List<String> names = new ArrayList<>();
            for (final MessagePathFault candidate :
                ServiceLoader.load(MessagePathFault.class, MessageFaults.class.getClassLoader()))
            {
                if (candidate.name().equals(wanted))
                {
                    return candidate;
                }
                names.add(candidate.name());
            }
            throw new RmaException(ErrorClass.ERR_OTHER, "no message-path fault named " + MessagePathFault.PROPERTY +
                "=" + wanted + " (found " + names + ")");
        }
    }
}
