/**
 * What the project's modules share with the api: the node a process runs on ({@link
 * mpi.rma.spi.common.NodeIdentity}), so that the shm device and the windows agree on which ranks share a node.
 *
 * <p>Not API: programs never use it, and it may change in any release. It is exported only because the device
 * and the conformance suite, other modules of this project, need the very same code as the api; everything else
 * behind {@code mpi.rma} stays in {@code mpi.rma.internal}, which is not exported.
 */
package mpi.rma.spi.common;
