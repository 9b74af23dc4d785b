package xdev.shmdev;

import xdev.XDevException;

/**
 * A fault a test may put into the device with {@code -Dxdev.shmdev.fault=<name>}, to prove that the tests
 * meant to catch it do (as the conformance suite runs against broken providers). Never set in a real job:
 * without the property the device is whole.
 */
enum DeviceFault
{
    /** No fault: the property is not set. */
    NONE(""),
    /**
     * The device moves its messages only in its own waits, not in the process's other waits (collectives'
     * fences and flag rounds, window synchronisations): a send left pending before such a wait stalls.
     */
    NO_PROGRESS_IN_OTHER_WAITS("no-progress-in-other-waits");

    /** System property that names the fault. */
    static final String PROPERTY = "xdev.shmdev.fault";

    private final String propertyValue;

    DeviceFault(final String propertyValue)
    {
        this.propertyValue = propertyValue;
    }

    /**
     * The fault the property names, or {@link #NONE}.
     *
     * @throws XDevException naming the property and the faults there are, for any other value.
     */
    static DeviceFault configured()
    {
        final String value = System.getProperty(PROPERTY);
        if (value == null)
        {
            return NONE;
        }
        for (final DeviceFault fault : values())
        {
            if (fault != NONE && fault.propertyValue.equals(value))
            {
                return fault;
            }
        }
        throw new XDevException("shm device: -D" + PROPERTY + "=" + value + " is not a fault of the device; " +
            "the one there is (for tests of the test suite only) is " + NO_PROGRESS_IN_OTHER_WAITS.propertyValue);
    }
}
