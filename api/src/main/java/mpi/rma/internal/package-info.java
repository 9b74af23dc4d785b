/**
 * The machinery behind {@link mpi.rma.Win} that every flavour shares: argument checks, epochs, hints, the
 * request-based calls, how a window reaches its targets ({@link mpi.rma.internal.TargetPath}), and how collective
 * calls agree on failure.
 *
 * <p>Not API: internal to {@code mpi.rma}, which is what programs use; it may change in any release, and
 * {@code module-info} does not export it.
 */
package mpi.rma.internal;
