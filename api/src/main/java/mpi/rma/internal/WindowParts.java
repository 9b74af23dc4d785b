package mpi.rma.internal;

import mpi.Intracomm;

/**
 * What a window creation agreed on and built, for {@link mpi.rma.Win} to be made of: the communicator, every
 * process's size and displacement unit, the hints, and how targets are reached. The creation classes return
 * one; the window keeps its parts.
 *
 * @param comm      the window's processes.
 * @param sizes     each process's size in bytes.
 * @param dispUnits each process's displacement unit.
 * @param hints     the window's checked info keys.
 * @param targets   how this process reaches every target.
 */
public record WindowParts(Intracomm comm, long[] sizes, int[] dispUnits, WindowHints hints, TargetPath targets)
{
}
