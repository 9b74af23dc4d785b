package xdev.shmdev;

/**
 * What a request needs from its device: there is no progress thread, so whoever waits or tests a
 * request drives the device through this.
 */
interface RequestDriver
{
    /** Drives the device until {@code request} is done (or fails naming a dead rank). */
    void await(ShmRequest request);

    /**
     * Under the device's lock: whether {@code request} is done, else one pass over every queue and whether it is
     * done now (one step of {@link #await}).
     */
    kupl.Waiter.Outcome attemptCompletion(ShmRequest request);

    /** One pass over every queue, for a test of completion. */
    void progressOnce();

    /** Drops a completed request from what {@code peek} can still return. */
    void forget(ShmRequest request);
}
