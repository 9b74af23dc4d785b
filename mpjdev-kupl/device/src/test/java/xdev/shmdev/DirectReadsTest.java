package xdev.shmdev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import xdev.XDevException;

/** When large messages are read straight from the sender ({@code -Dxdev.shmdev.directReads}). */
class DirectReadsTest
{
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    @AfterEach
    void clearProperty()
    {
        System.clearProperty(DirectReads.PROPERTY);
    }

    @Test
    void shouldReadDirectlyByDefaultOnlyWhenTheRanksOutnumberTheCores()
    {
        assertFalse(DirectReads.configured(CORES).enabled(), "one rank per core: the staging areas' pipeline");
        assertTrue(DirectReads.configured(CORES + 1).enabled(), "oversubscribed: one call per message");
        System.setProperty(DirectReads.PROPERTY, "auto");
        assertFalse(DirectReads.configured(1).enabled());
    }

    @Test
    void shouldFollowAnExplicitSetting()
    {
        System.setProperty(DirectReads.PROPERTY, "true");
        assertTrue(DirectReads.configured(1).enabled());
        System.setProperty(DirectReads.PROPERTY, "false");
        assertFalse(DirectReads.configured(CORES + 1).enabled());
    }

    @Test
    void shouldNameThePropertyAndItsValuesForAnyOtherValue()
    {
        System.setProperty(DirectReads.PROPERTY, "yes");
        final XDevException error = assertThrows(XDevException.class, () -> DirectReads.configured(2));
        assertEquals("shm device: -Dxdev.shmdev.directReads=yes is not one of auto (on when the job's ranks " +
            "outnumber the cores), true or false", error.getMessage());
    }
}
