package kupl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The engine's use of the out-of-band callbacks: fixed-size records gathered from every
 * process, each carrying its sender's outcome of a local step. Because every process sees
 * every outcome, all of them reach the same verdict: a collective call either succeeds
 * everywhere or fails everywhere with the same message, and none is left waiting.
 */
final class OobExchange
{
    private static final int STATUS_OK = 0;
    private static final int STATUS_FAILED = 1;
    private static final int MESSAGE_MAX_BYTES = 400;
    private static final int HEADER_BYTES = 1 + 2 + MESSAGE_MAX_BYTES;

    private final OobCallbacks callbacks;
    private final Object group;
    private final int size;
    private final int rank;

    OobExchange(final OobCallbacks callbacks, final Object group, final int size, final int rank)
    {
        this.callbacks = callbacks;
        this.group = group;
        this.size = size;
        this.rank = rank;
    }

    /**
     * Gathers every process's payload (all of {@code payloadBytes}) together with its outcome
     * of {@code step}.
     *
     * @param localError null if this process's step succeeded, else why it failed.
     * @return every process's payload, indexed by rank, little-endian.
     * @throws KuplException on every process if the step failed on any of them.
     */
    ByteBuffer[] exchange(final String step, final byte[] payload, final String localError)
    {
        final int recordBytes = HEADER_BYTES + payload.length;
        final ByteBuffer record = ByteBuffer.allocate(recordBytes).order(ByteOrder.LITTLE_ENDIAN);
        final byte[] message = truncate(localError == null ? "" : localError);
        record.put((byte)(localError == null ? STATUS_OK : STATUS_FAILED))
            .putShort((short)message.length).put(message)
            .position(HEADER_BYTES);
        record.put(payload);
        final byte[] all = new byte[recordBytes * size];
        final int result = callbacks.oobAllgather(record.array(), all, recordBytes, group, ShmDatatype.CHAR);
        if (result != Kupl.KUPL_OK)
        {
            throw new KuplException(step + ": the out-of-band allgather callback returned " + result +
                " on rank " + rank);
        }
        // Ranks that failed for the same reason are reported together: "ranks 0, 1: reason".
        final Map<String, List<Integer>> failures = new LinkedHashMap<>();
        final ByteBuffer[] payloads = new ByteBuffer[size];
        for (int peer = 0; peer < size; peer++)
        {
            final ByteBuffer peerRecord = ByteBuffer.wrap(all, peer * recordBytes, recordBytes).slice()
                .order(ByteOrder.LITTLE_ENDIAN);
            if (peerRecord.get(0) != STATUS_OK)
            {
                final int length = peerRecord.getShort(1);
                final String text = new String(all, peer * recordBytes + 3, length, StandardCharsets.UTF_8);
                failures.computeIfAbsent(text, ignored -> new ArrayList<>()).add(peer);
            }
            payloads[peer] = peerRecord.position(HEADER_BYTES).slice().order(ByteOrder.LITTLE_ENDIAN);
        }
        if (!failures.isEmpty())
        {
            final StringBuilder report = new StringBuilder(step).append(" failed on ");
            failures.forEach((text, ranks) -> report.append(report.charAt(report.length() - 1) == ' ' ? "" : "; ")
                .append(ranks.size() == 1 ? "rank " : "ranks ")
                .append(ranks.stream().map(String::valueOf).collect(Collectors.joining(", ")))
                .append(": ").append(text));
            throw new KuplException(report.toString());
        }
        return payloads;
    }

    /** {@link #exchange} without a payload: only agrees on the outcome of {@code step}. */
    void agree(final String step, final String localError)
    {
        exchange(step, new byte[0], localError);
    }

    void barrier(final String step)
    {
        final int result = callbacks.oobBarrier(group);
        if (result != Kupl.KUPL_OK)
        {
            throw new KuplException(step + ": the out-of-band barrier callback returned " + result + " on rank " + rank);
        }
    }

    private static byte[] truncate(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= MESSAGE_MAX_BYTES ? bytes : Arrays.copyOf(bytes, MESSAGE_MAX_BYTES);
    }
}
