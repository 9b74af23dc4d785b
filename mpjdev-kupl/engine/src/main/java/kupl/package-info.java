/**
 * A Java implementation of the shared-memory engine of Huawei's KUPL library: processes of
 * one node build a <em>comm</em> from out-of-band callbacks, allocate <em>windows</em> (one
 * directly addressable segment per process) and synchronise them with <em>fences</em>.
 *
 * <p><b>Two APIs.</b> {@link kupl.Kupl} has the C functions of {@code kupl.h} with their C
 * shapes (return codes, one-element arrays for out-pointers), so the KUPL examples port line
 * by line. {@link kupl.ShmComm} and {@link kupl.ShmWin} are the Java API under it: objects,
 * {@link kupl.KuplException}s with messages that say what to change, try-with-resources.
 *
 * <p><b>Configuration.</b> The environment variables of {@link kupl.KuplEnv}, read once per
 * comm into a {@link kupl.KuplConfig}; a value outside the documented ones is an error.
 *
 * <p><b>Guarantees.</b> Collective calls fail on every process or on none. Segments are
 * unnamed, so nothing is left in {@code /dev/shm} after any exit, {@code kill -9} included.
 * Pages are reserved at allocation, so a full tmpfs is an error there and never a SIGBUS
 * later. A freed window's segments throw on access. A process waiting in a fence for a
 * process that died fails with {@link kupl.PeerDeathException} instead of hanging.
 *
 * <p>This package uses no MPJ Express type: any out-of-band transport works
 * ({@link kupl.bootstrap} has one over a Unix-domain socket).
 */
package kupl;
