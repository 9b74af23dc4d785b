/**
 * The engine's out-of-band bootstrap, for running it without MPI: an {@link kupl.bootstrap.OobHub}
 * serves the out-of-band allgather and barrier of N JVMs on this node, and
 * {@link kupl.bootstrap.SocketOob} is the callbacks' side in each JVM. Starting those JVMs is the
 * launcher's job (the process kit in {@code mpjrun.process}: the {@code shm} device's launcher, and
 * {@code EngineJob} for the engine's benchmarks and anyone who wants KUPL windows between plain Java
 * processes); the engine's tests start theirs with a small job of their own.
 *
 * <p><b>Who can join.</b> The hub listens on a Unix-domain socket in a directory of mode 0700
 * that exists only while the job starts: no other user can connect, and the hub drops a peer of
 * another user ({@code SO_PEERCRED}) should the directory be opened. Nothing a process shows
 * (its command line holds the socket's path and the job id) lets anyone else join, so there is
 * no secret to pass.
 *
 * <p><b>Timeouts</b> ({@link kupl.bootstrap.BootstrapTimeouts}, from the environment): a
 * connection must introduce itself within {@code KUPL_SHM_HELLO_MS} (5 s) or is dropped, without
 * delaying the others; every rank must connect within {@code KUPL_SHM_ARRIVAL_MS} (60 s) of the
 * first, or the job is given up and every side fails with a message naming the missing ranks. A
 * process that exits before every rank has arrived gives the job up at once if it had connected,
 * or if another has connected or connects later; while none has, processes may end without ever
 * connecting (a program that does not use the hub at all). After start-up the collectives
 * wait without a timeout (ranks may compute for hours between two); a rank that dies closes its
 * connection, which releases the others.
 */
package kupl.bootstrap;
