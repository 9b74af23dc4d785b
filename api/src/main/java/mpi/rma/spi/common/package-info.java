/**
 * What the project's modules share with the api: the one table of MPJ Express's basic datatypes ({@link
 * mpi.rma.spi.common.BasicType}, with the pair types of MAXLOC and MINLOC, {@link mpi.rma.spi.common.PairType}),
 * the one table of reductions ({@link mpi.rma.spi.common.ReduceOp}), and the node a process runs on ({@link
 * mpi.rma.spi.common.NodeIdentity}), so that the api, the shm device and the conformance suite agree on them.
 *
 * <p>Not API: programs never use it, and it may change in any release. It is exported only because the device
 * and the conformance suite, other modules of this project, need the very same code as the api; everything else
 * behind {@code mpi.rma} stays in {@code mpi.rma.internal}, which is not exported.
 */
package mpi.rma.spi.common;
