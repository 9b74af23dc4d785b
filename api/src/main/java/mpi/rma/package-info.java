/**
 * MPI-3 shared-memory windows for MPJ Express programs: {@link mpi.rma.Win#allocateShared},
 * {@link mpi.rma.Win#sharedQuery}, fences, passive-target locks and the one-sided calls, on any
 * MPJ Express device whose processes share one node. The memory comes from a
 * {@link mpi.rma.spi.SharedMemoryProvider} (the KUPL engine: {@code mpi.rma.kupl} in module {@code mpjdev-kupl/device}).
 */
package mpi.rma;
