package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rank that dies during an out-of-band step (window allocation, comm destruction) is named
 * by a {@link PeerDeathException}, with the failed callback as its cause, instead of a bare
 * "the callback failed"; and a transport that reports the death itself is believed, in comm
 * creation too.
 */
@Timeout(60)
class OutOfBandDeathTest
{
    private static final int RANKS = 3;
    private static final int VICTIM = 2;
    /** How long {@link ThreadOob} waits for the victim before its callbacks fail. */
    private static final Duration OOB_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Rank 2 (a thread) does its part of comm creation, and of the window's allocation and free
     * before "destroy", then ends; the others' next out-of-band step must name it.
     */
    @ParameterizedTest(name = "rank 2 ends before {0}")
    @ValueSource(strings = {"alloc", "destroy"})
    void shouldNameAThreadRankThatEndedBeforeAnOutOfBandStep(final String step) throws Exception
    {
        final KuplConfig config = KuplConfig.fromVariables(Map.of("KUPL_SHM_LIVENESS_MS", "50"));
        final CountDownLatch reported = new CountDownLatch(VICTIM);
        final List<ThreadOob.Outcome<Object>> outcomes = ThreadOob.run(RANKS, OOB_TIMEOUT, RUN_TIMEOUT,
            Thread.ofPlatform(), (rank, oob) ->
            {
                final ShmComm comm = ShmComm.create(RANKS, rank, ThreadOob.pid(), oob, null, config);
                if ("destroy".equals(step))
                {
                    comm.allocate(64, false).close();
                }
                if (rank == VICTIM)
                {
                    return "ended";
                }
                final PeerDeathException death = assertThrows(PeerDeathException.class, () ->
                {
                    if ("alloc".equals(step))
                    {
                        comm.allocate(64, false);
                    }
                    else
                    {
                        comm.close();
                    }
                });
                // Stay alive until every survivor has its error: a survivor that ended would be named instead.
                reported.countDown();
                reported.await(RUN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                return death;
            });

        final String all = outcomes.toString();
        assertNull(outcomes.get(VICTIM).failure(), all);
        for (int rank = 0; rank < VICTIM; rank++)
        {
            final PeerDeathException death = assertInstanceOf(PeerDeathException.class, outcomes.get(rank).orThrow());
            assertEquals(VICTIM, death.deadRank(), all);
            assertTrue(death.getMessage().startsWith("rank " + VICTIM + " died: its thread"), death.getMessage());
            // The callback's failure is the cause: what the transport saw stays readable.
            final KuplException oobFailure = assertInstanceOf(KuplException.class, death.getCause(), all);
            assertTrue(oobFailure.getMessage().contains("out-of-band") &&
                oobFailure.getMessage().contains("returned " + Kupl.KUPL_ERROR), oobFailure.getMessage());
        }
    }

    /** A callback that throws a death (as the shm device's Allgather does) fails comm creation naming that rank. */
    @Test
    void shouldNameTheRankThatTheTransportReportsDeadInCommCreation()
    {
        final PeerDeathException reported = new PeerDeathException(1, "rank 1 died: the transport lost it");
        final RuntimeException transportError = new IllegalStateException("allgather failed", reported);
        final OobCallbacks throwing = throwingOob(transportError);

        final PeerDeathException death = assertThrows(PeerDeathException.class,
            () -> ShmComm.create(2, 0, ThreadOob.pid(), throwing, null));

        assertEquals(1, death.deadRank());
        assertTrue(death.getMessage().startsWith("rank 1 died: the transport lost it (comm create"),
            death.getMessage());
        assertSame(transportError, death.getCause().getCause());
        assertSame(reported, PeerDeathException.in(death.getCause()).orElseThrow());
    }

    /** A callback that throws something else: a plain engine error, with the callback's exception as cause. */
    @Test
    void shouldKeepAnUnrelatedCallbackErrorAsTheCause()
    {
        final RuntimeException transportError = new IllegalStateException("connection reset");
        final OobCallbacks throwing = throwingOob(transportError);

        final KuplException failure = assertThrows(KuplException.class,
            () -> ShmComm.create(2, 0, ThreadOob.pid(), throwing, null));

        assertEquals(KuplException.class, failure.getClass());
        assertTrue(failure.getMessage().contains("out-of-band allgather callback threw " + transportError),
            failure.getMessage());
        assertSame(transportError, failure.getCause());
    }

    /** Callbacks whose every call throws {@code error}, as a transport that lost a peer does. */
    private static OobCallbacks throwingOob(final RuntimeException error)
    {
        return new OobCallbacks()
        {
            @Override
            public int oobAllgather(final byte[] sendbuf, final byte[] recvbuf, final int size, final Object group,
                final ShmDatatype datatype)
            {
                throw error;
            }

            @Override
            public int oobBarrier(final Object group)
            {
                throw error;
            }
        };
    }
}
