package mpjrun.process;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * What a process has printed so far, kept as raw bytes and decoded as a whole, so that no UTF-8
 * sequence is cut where one read ended. Safe to read while a forwarder appends.
 */
public final class CapturedOutput
{
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /** Appends {@code length} bytes of {@code chunk} from {@code offset}. */
    public void append(final byte[] chunk, final int offset, final int length)
    {
        synchronized (bytes)
        {
            bytes.write(chunk, offset, length);
        }
    }

    /** Appends a note of the launcher's own (a line saying what it did, say). */
    public void append(final String text)
    {
        final byte[] encoded = text.getBytes(StandardCharsets.UTF_8);
        append(encoded, 0, encoded.length);
    }

    /** Everything appended so far. */
    public String text()
    {
        synchronized (bytes)
        {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public String toString()
    {
        return text();
    }
}
