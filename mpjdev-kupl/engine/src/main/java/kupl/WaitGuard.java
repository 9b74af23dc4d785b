package kupl;

/**
 * A check that a {@link Waiter} runs at the liveness interval, besides {@link Liveness}: it
 * throws if the wait can never end for a reason of the caller's own, such as a fence that a
 * process left by freeing the window ({@link FreeBarrier#checkFenceCanComplete}).
 */
@FunctionalInterface
public interface WaitGuard
{
    /** No check of its own. */
    WaitGuard NONE = (what, waitedNs) ->
    {
    };

    /**
     * Throws if the wait can never end.
     *
     * @param what     what is being waited for, as the waiter's caller named it.
     * @param waitedNs how long the wait has lasted.
     * @throws KuplException naming the cause and the fix.
     */
    void check(Object what, long waitedNs);
}
