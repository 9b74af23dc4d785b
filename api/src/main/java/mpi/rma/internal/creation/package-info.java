/**
 * Window creation: each process checks its arguments, all agree on the layout in one exchange, and the parts of a
 * window are built ({@link mpi.rma.internal.WindowParts}).
 *
 * <p>Not API: internal to {@code mpi.rma}, which is what programs use; it may change in any release, and
 * {@code module-info} does not export it.
 */
package mpi.rma.internal.creation;
