package kupl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * A refused reservation says what is missing: "needs 16.0 MiB ... which has 16.0 MiB free" explained
 * nothing, so figures that round alike come with their exact bytes and the shortfall.
 */
class NotEnoughSpaceMessageTest
{
    private static final Path DIR = Path.of("/mnt/small");

    @Test
    void shouldGiveExactBytesAndTheShortfallWhenTheRoundedFiguresLookAlike()
    {
        final String message = SharedMemoryObject.notEnoughSpace(16L << 20, DIR, (16L << 20) - 8192);

        assertTrue(message.contains("needs 16.0 MiB (16777216 B) in KUPL_SHM_DIR=/mnt/small"), message);
        assertTrue(message.contains("which has 16.0 MiB free (16769024 B), 8.0 KiB short"), message);
        assertTrue(message.contains("control object"), message);
    }

    @Test
    void shouldKeepTheFiguresShortWhenTheyDiffer()
    {
        final String message = SharedMemoryObject.notEnoughSpace(64L << 20, DIR, 10L << 20);

        assertTrue(message.contains("needs 64.0 MiB in KUPL_SHM_DIR=/mnt/small, which has 10.0 MiB free, 54.0 MiB short"),
            message);
        assertFalse(message.contains(" B)"), message);
    }
}
