/**
 * Running the engine without MPI: {@link kupl.bootstrap.LocalJob} starts N JVMs on this node and
 * serves their out-of-band allgather and barrier over loopback TCP; {@link kupl.bootstrap.SocketOob}
 * is the callbacks' side in each JVM. Used by the engine's tests and benchmarks, and by anyone
 * who wants KUPL windows between plain Java processes.
 */
package kupl.bootstrap;
