/**
 * MPI one-sided communication (MPI-4.1 chapter 12) for MPJ Express programs: the types a program uses.
 * {@link mpi.rma.Win} makes windows of every flavour ({@link mpi.rma.Win#allocateShared},
 * {@link mpi.rma.Win#create}, {@link mpi.rma.Win#allocate}, {@link mpi.rma.Win#createDynamic}) and carries every
 * one-sided call and synchronisation (fence, post-start-complete-wait, passive-target locks, flushes);
 * {@link mpi.rma.WinRequest} is the request of a request-based call; {@link mpi.rma.Info} holds hints;
 * {@link mpi.rma.SharedSegment} is what {@link mpi.rma.Win#sharedQuery} gives; {@link mpi.rma.Shared#split}
 * splits a communicator by node; failures are {@link mpi.rma.RmaException}s carrying an
 * {@link mpi.rma.ErrorClass}, seen first by the window's {@link mpi.rma.WinErrhandler}; window attributes of the
 * program's own keys run a {@link mpi.rma.WinDeleteAttrFunction} when they go ({@link mpi.rma.WinCopyAttrFunction}
 * completes MPI's key).
 *
 * <p>The memory comes from a {@link mpi.rma.spi.SharedMemoryProvider} (the KUPL engine, {@code mpi.rma.kupl}
 * in module {@code mpjdev-kupl/device}). The implementation lives in {@code mpi.rma.internal} and its
 * subpackages, which are not API: they may change in any release, and {@code module-info} does not export them.
 */
package mpi.rma;
