package kupl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The engine's use of the out-of-band callbacks: fixed-size records gathered from every
 * process, each carrying its sender's outcome of a local step. Because every process sees
 * every outcome, all of them reach the same verdict: a collective call either succeeds
 * everywhere or fails everywhere with the same message, and none is left waiting.
 *
 * <p><b>Failed callbacks.</b> A callback that fails (returns an error or throws) is most often
 * the sign of a process that died. Its exception travels as the cause; if a
 * {@link PeerDeathException} is in its cause chain, or, once the comm's ranks are known
 * ({@link #watching}), one of them is found dead, the step fails with a
 * {@link PeerDeathException} naming that rank instead of a bare "the callback failed".
 */
final class OobExchange
{
    private static final int STATUS_OK = 0;
    private static final int STATUS_FAILED = 1;
    private static final int MESSAGE_MAX_BYTES = 400;
    private static final int HEADER_BYTES = 1 + 2 + MESSAGE_MAX_BYTES;
    /**
     * How long a failed callback looks for a dead rank at least: a transport can fail a moment
     * before the process behind it is gone (a JVM's sockets close while it exits), and a death
     * found a moment later is still the real cause.
     */
    private static final long DEATH_GRACE_NS = 1_000_000_000L;

    private final OobCallbacks callbacks;
    private final Object group;
    private final int size;
    private final int rank;
    /** Null until the ranks are known and checked (comm creation itself has nobody to watch). */
    private final Waiter deathWatch;
    private final long deathGraceNs;

    OobExchange(final OobCallbacks callbacks, final Object group, final int size, final int rank)
    {
        this(callbacks, group, size, rank, null, 0);
    }

    private OobExchange(final OobCallbacks callbacks, final Object group, final int size, final int rank,
        final Waiter deathWatch, final long deathGraceNs)
    {
        this.callbacks = callbacks;
        this.group = group;
        this.size = size;
        this.rank = rank;
        this.deathWatch = deathWatch;
        this.deathGraceNs = deathGraceNs;
    }

    /**
     * The same exchange, which after a failed callback looks for a dead rank with {@code waiter}
     * (its liveness check) for a grace period of at least two of its liveness intervals.
     */
    OobExchange watching(final Waiter waiter, final long livenessIntervalNs)
    {
        return new OobExchange(callbacks, group, size, rank, waiter, Math.max(DEATH_GRACE_NS, 2 * livenessIntervalNs));
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
        final int result;
        try
        {
            result = callbacks.oobAllgather(record.array(), all, recordBytes, group, ShmDatatype.CHAR);
        }
        catch (final RuntimeException e)
        {
            throw callbackFailed(step, "allgather", "threw " + e, e);
        }
        if (result != Kupl.KUPL_OK)
        {
            throw callbackFailed(step, "allgather", "returned " + result, null);
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
        final int result;
        try
        {
            result = callbacks.oobBarrier(group);
        }
        catch (final RuntimeException e)
        {
            throw callbackFailed(step, "barrier", "threw " + e, e);
        }
        if (result != Kupl.KUPL_OK)
        {
            throw callbackFailed(step, "barrier", "returned " + result, null);
        }
    }

    /**
     * The error of a step whose {@code callback} failed ({@code outcome}): a {@link PeerDeathException}
     * naming the dead rank if the callback's error reports one or one of the watched ranks is dead
     * (now or within the grace period), else a {@link KuplException} saying what the callback did.
     * Either way the callback's exception, if any, is in the cause chain.
     */
    private KuplException callbackFailed(final String step, final String callback, final String outcome,
        final RuntimeException thrown)
    {
        final KuplException failure = new KuplException(step + ": the out-of-band " + callback + " callback " +
            outcome + " on rank " + rank, thrown);
        final Optional<PeerDeathException> reported = PeerDeathException.in(thrown);
        if (reported.isPresent())
        {
            return new PeerDeathException(reported.get().deadRank(), reported.get().getMessage() + " (" + step +
                ": the out-of-band " + callback + " failed on rank " + rank + ")", failure);
        }
        if (deathWatch == null)
        {
            return failure;
        }
        final String what = step + ", whose out-of-band " + callback + " failed";
        try
        {
            deathWatch.liveness().check(Liveness.ANY_RANK, what, 0);
            final long deadlineNs = System.nanoTime() + deathGraceNs;
            deathWatch.await(() -> System.nanoTime() - deadlineNs >= 0, what);
        }
        catch (final PeerDeathException e)
        {
            return new PeerDeathException(e.deadRank(), e.getMessage(), failure);
        }
        return failure;
    }

    private static byte[] truncate(final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= MESSAGE_MAX_BYTES ? bytes : Arrays.copyOf(bytes, MESSAGE_MAX_BYTES);
    }
}
