/**
 * Generalized active-target synchronisation (post, start, complete, wait) over flag words, messages, or both.
 *
 * <p>Not API: internal to {@code mpi.rma}, which is what programs use; it may change in any release, and
 * {@code module-info} does not export it.
 */
package mpi.rma.internal.sync;
