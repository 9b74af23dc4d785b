package mpi.rma.internal.creation;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import mpi.Intracomm;
import mpi.rma.ErrorClass;
import mpi.rma.Info;
import mpi.rma.RmaException;
import mpi.rma.internal.WindowHints;
import mpi.rma.internal.WindowParts;
import mpi.rma.internal.message.MessageTargets;
import mpi.rma.internal.message.MessageWindow;
import mpi.rma.internal.message.WindowBase;
import mpi.rma.internal.shared.AlignedSegments;
import mpi.rma.internal.vocabulary.Flavors;

/**
 * {@code Win.create}, {@code Win.allocate} and {@code Win.createDynamic}: each process checks its arguments, all agree
 * ({@link CreationAgreement}), then the window's message path starts ({@link MessageWindow}).
 * Kept out of {@code Win}, which documents them, so that the facade stays a facade.
 */
public final class MessageWindowCreation
{
    private MessageWindowCreation()
    {
    }

    public static WindowParts create(final Object base, final int dispUnit, final Info info, final Intracomm comm)
    {
        final String call = "Win.create";
        WindowDevices.refuse(call);
        if (comm == null)
        {
            throw new RmaException(ErrorClass.ERR_COMM, call + ": comm is null: give an intracommunicator such as " +
                "MPI.COMM_WORLD");
        }
        RmaException localError = null;
        MemorySegment memory = MemorySegment.NULL;
        WindowHints hints = WindowHints.defaults();
        try
        {
            memory = WindowBase.segmentOf(base, call);
            if (dispUnit <= 0)
            {
                throw new RmaException(ErrorClass.ERR_DISP, call + ": dispUnit=" + dispUnit + " must be positive " +
                    "(1 for bytes, 8 for doubles, ...)");
            }
            // The program's own memory: no alignment of the library's to report.
            hints = WindowHints.from(info, call).withMinimumAlignment(0);
        }
        catch (final RmaException e)
        {
            localError = e;
        }
        final CreationAgreement layout = CreationAgreement.reach(call, comm, memory.byteSize(), dispUnit, localError);
        return parts(comm, layout, hints, MessageWindow.start(call, comm, memory, Flavors.CREATE, null));
    }

    static WindowParts allocate(final long size, final int dispUnit, final Info info, final Intracomm comm)
    {
        final String call = "Win.allocate";
        if (comm == null)
        {
            throw new RmaException(ErrorClass.ERR_COMM, call + ": comm is null: give an intracommunicator such as " +
                "MPI.COMM_WORLD");
        }
        RmaException localError = null;
        WindowHints hints = WindowHints.defaults();
        Arena arena = null;
        MemorySegment memory = MemorySegment.NULL;
        try
        {
            if (size < 0)
            {
                throw new RmaException(ErrorClass.ERR_SIZE, call + ": size=" + size + " is negative: give 0 or more " +
                    "bytes");
            }
            if (dispUnit <= 0)
            {
                throw new RmaException(ErrorClass.ERR_DISP, call + ": dispUnit=" + dispUnit + " must be positive " +
                    "(1 for bytes, 8 for doubles, ...)");
            }
            hints = WindowHints.from(info, call);
            arena = Arena.ofShared();
            memory = arena.allocate(size, Math.max(64, hints.minimumAlignment()));
            hints = hints.withMinimumAlignment(AlignedSegments.alignmentOf(memory, Math.max(64,
                hints.minimumAlignment())));
        }
        catch (final RmaException e)
        {
            localError = e;
        }
        catch (final OutOfMemoryError e)
        {
            localError = new RmaException(ErrorClass.ERR_NO_MEM, call + ": " + size + " bytes cannot be had here (" +
                e.getMessage() + "): give a smaller size or the JVM more memory");
        }
        final CreationAgreement layout;
        try
        {
            layout = CreationAgreement.reach(call, comm, memory.byteSize(), dispUnit, localError);
        }
        catch (final RmaException e)
        {
            if (arena != null)
            {
                arena.close();
            }
            throw e;
        }
        return parts(comm, layout, hints, MessageWindow.start(call, comm, memory, Flavors.ALLOCATE,
            arena));
    }

    /** A dynamic window: size 0 and displacement unit 1 on every process, memory attached later. */
    public static WindowParts createDynamic(final Info info, final Intracomm comm)
    {
        final String call = "Win.createDynamic";
        WindowDevices.refuse(call);
        if (comm == null)
        {
            throw new RmaException(ErrorClass.ERR_COMM, call + ": comm is null: give an intracommunicator such as " +
                "MPI.COMM_WORLD");
        }
        RmaException localError = null;
        WindowHints hints = WindowHints.defaults();
        try
        {
            hints = WindowHints.from(info, call).withMinimumAlignment(0);
        }
        catch (final RmaException e)
        {
            localError = e;
        }
        // Displacements into a dynamic window are addresses (Win.address): unit 1 for every target, as MPI says.
        final CreationAgreement layout = CreationAgreement.reach(call, comm, 0, 1, localError);
        return parts(comm, layout, hints, MessageWindow.start(call, comm, MemorySegment.NULL,
            Flavors.DYNAMIC, null));
    }

    /** A window whose targets are all reached by {@code messages}. */
    private static WindowParts parts(final Intracomm comm, final CreationAgreement layout, final WindowHints hints,
        final MessageWindow messages)
    {
        return new WindowParts(comm, layout.sizes(), layout.dispUnits(), hints,
            new MessageTargets(comm.Rank(), layout.sizes(), layout.dispUnits(), messages));
    }
}
