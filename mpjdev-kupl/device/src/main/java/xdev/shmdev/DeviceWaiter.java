package xdev.shmdev;

import kupl.Doorbell;
import kupl.KuplConfig;
import kupl.PeerDeathException;
import kupl.ShmComm;
import kupl.ShmWin;
import kupl.Waiter;
import xdev.XDevException;

/**
 * How a thread of the device waits: the engine's one {@link Waiter}, the device's window's (so
 * that every rank of the job names the same dead rank, the first one recorded in the window's
 * control object), with this process's {@link Doorbell} as its last step: once spinning and
 * yielding are over, the thread sleeps until a peer rings the bell (it wrote to this process or
 * freed room in a queue), at most the liveness interval ({@code KUPL_SHM_LIVENESS_MS}), after
 * which the waiter checks that the other ranks are alive.
 *
 * <p>The device drives itself while it waits (there is no progress thread): each
 * {@link Waiter.Attempt} makes one pass over the queues. Thread-safe: each call has its own backoff.
 */
final class DeviceWaiter
{
    private final Waiter waiter;
    private final ShmComm comm;

    DeviceWaiter(final ShmWin window, final ShmComm comm, final KuplConfig config, final Doorbell ownBell)
    {
        this(window.waiter().withParker(ownBell.asParker(), config.livenessIntervalNs(), config.livenessIntervalNs())
            .withProgressInAttempts(), comm);
    }

    /** A waiter made of {@code waiter}, whose attempts make the device's pass themselves. */
    DeviceWaiter(final Waiter waiter, final ShmComm comm)
    {
        this.waiter = waiter;
        this.comm = comm;
    }

    /**
     * Repeats {@code attempt} until it reports {@link Waiter.Outcome#MET}; {@code what} names the wait in errors.
     *
     * @throws XDevException naming the rank (and its pid) if a rank of the job died meanwhile.
     */
    void await(final Waiter.Attempt attempt, final Object what)
    {
        try
        {
            waiter.await(attempt, what);
        }
        catch (final PeerDeathException e)
        {
            throw deathError(e, comm);
        }
    }

    /** The device's error for a rank's death, naming the rank and its pid, the engine's exception as its cause. */
    static XDevException deathError(final PeerDeathException death, final ShmComm comm)
    {
        final int dead = death.deadRank();
        final XDevException error = new XDevException("shm device: rank " + dead + " (pid " + comm.pid(dead) +
            ") has died (exited without MPI.Finalize or was killed): " + death.getMessage());
        error.initCause(death);
        return error;
    }
}
