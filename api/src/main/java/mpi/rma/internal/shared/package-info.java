/**
 * The shared-memory path: targets on the caller's node reached by loads and stores, with locks, atomics and flag
 * words in the window's shared memory.
 *
 * <p>Not API: internal to {@code mpi.rma}, which is what programs use; it may change in any release, and
 * {@code module-info} does not export it.
 */
package mpi.rma.internal.shared;
