package conformance;

import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;

import mpi.Intracomm;
import mpi.MPI;
import mpi.rma.Info;
import mpi.rma.Win;

/**
 * The dynamic windows of one case ({@link Flavour#DYNAMIC}), made so that a case body written for a
 * window of {@code bytes} bytes and a displacement unit runs unchanged but for its displacements:
 * each process attaches the Java array {@link Win#create} would be given, and the processes
 * exchange the address of its first byte and the unit the case meant, as a program using
 * {@code MPI_Win_create_dynamic} exchanges addresses (MPI-4.1 §12.2.4; MPICH win_dynamic_acc).
 * A displacement of the case, in its units, then becomes that address plus the displacement times
 * the target's unit ({@link #disp}).
 */
final class DynamicWindows
{
    /** What one dynamic window exposes: this process's attached memory; every process's address and unit. */
    private record Attached(MemorySegment memory, long[] addresses, long[] units)
    {
    }

    private final Map<Win, Attached> windows = new IdentityHashMap<>();

    /**
     * A dynamic window on {@code on} with a zeroed array of {@code bytes} bytes attached on every
     * process ({@link CaseContext#arrayFor}); collective over {@code on}, which it also uses to
     * exchange the addresses.
     */
    Win make(final long bytes, final int dispUnit, final Info info, final Intracomm on)
    {
        final Object array = CaseContext.arrayFor(bytes, dispUnit);
        final Win win = Win.createDynamic(info, on);
        final long address = win.attach(array);
        final int size = on.Size();
        final long[] all = new long[2 * size];
        on.Allgather(new long[] {address, dispUnit}, 0, 2, MPI.LONG, all, 0, 2, MPI.LONG);
        final long[] addresses = new long[size];
        final long[] units = new long[size];
        for (int r = 0; r < size; r++)
        {
            addresses[r] = all[2 * r];
            units[r] = all[2 * r + 1];
        }
        windows.put(win, new Attached(memoryOf(array), addresses, units));
        return win;
    }

    /** Whether {@code win} is one of these windows. */
    boolean contains(final Win win)
    {
        return windows.containsKey(win);
    }

    /** The memory this process attached to {@code win}. */
    MemorySegment memory(final Win win)
    {
        return attached(win).memory();
    }

    /**
     * The target displacement that reaches displacement {@code disp} (in the unit the case gave
     * {@code target}) of {@code target}'s attached memory: its address plus {@code disp} units.
     */
    long disp(final Win win, final int target, final long disp)
    {
        final Attached attached = attached(win);
        return Math.addExact(attached.addresses()[target], Math.multiplyExact(disp, attached.units()[target]));
    }

    /** The displacement unit the case gave {@code target} for {@code win}. */
    int unit(final Win win, final int target)
    {
        return (int)attached(win).units()[target];
    }

    private Attached attached(final Win win)
    {
        final Attached attached = windows.get(win);
        if (attached == null)
        {
            throw new IllegalArgumentException("this window was not made by the case's context as a dynamic window");
        }
        return attached;
    }

    private static MemorySegment memoryOf(final Object array)
    {
        return switch (array)
        {
            case long[] longs -> MemorySegment.ofArray(longs);
            case int[] ints -> MemorySegment.ofArray(ints);
            case short[] shorts -> MemorySegment.ofArray(shorts);
            case byte[] bytes -> MemorySegment.ofArray(bytes);
            default -> throw new IllegalArgumentException("no array: " + array.getClass().getName());
        };
    }
}
