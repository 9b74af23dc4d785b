/**
 * The message path: targets reached by MPJ Express point-to-point on communicators private to the window, served
 * by a target agent thread of each process.
 *
 * <p>Not API: internal to {@code mpi.rma}, which is what programs use; it may change in any release, and
 * {@code module-info} does not export it.
 */
package mpi.rma.internal.message;
