package conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;

import mpjrun.MpjDevice;
import mpjrun.SimulatedCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases must be able to fail on windows reached by messages too: the suite runs with a
 * deliberately broken message path ({@code conformance.broken}'s {@code MessagePathFault}s,
 * chosen with {@code -Dmpi.rma.messageFault}) and the cases that check the spoiled behaviour fail,
 * while a case that does not depend on it still passes.
 */
@Tag("slow")
class BrokenMessagePathTest
{
    private static final long CASE_TIMEOUT_MS = 6000;

    static List<Arguments> faults()
    {
        final List<String> dropped = List.of("rma.put-ring", "rma.every-basic-type", "lock.flush-then-third-party",
            "flavour.busy-target-progress", "req.rput-local-completion", "rma.large-put-get",
            "fence.many-small-operations", "lock.contended-puts");
        // On two nodes lock.flush-then-third-party's put (rank 0 to rank 1) stays within a node: shared memory,
        // no message to drop.
        final List<String> droppedAcrossNodes = List.of("rma.put-ring", "rma.every-basic-type",
            "flavour.busy-target-progress", "req.rput-local-completion", "rma.large-put-get",
            "fence.many-small-operations", "lock.contended-puts");
        final List<String> torn = List.of("acc.sum-no-lost-updates", "acc.fetch-and-op-unique", "req.atomic-tickets",
            "fop.int-sum-increments", "pattern.work-queue", "fop.pair-swap-chain");
        // Across nodes only the target's agent applies messages (one thread, so they never tear each other). The
        // fault tears the node's own shared-memory updates too: in acc.sum-no-lost-updates ranks 0 and 1 (one node)
        // each make 500 torn updates of rank 0's long, a pause in each, so they overlap for milliseconds. Torn on
        // the agent's side alone, the node's updates ended in microseconds, mostly before the remote ones arrived,
        // and the case passed by chance (a clean clone's bin/test saw it pass).
        final List<String> tornAcrossNodes = List.of("acc.sum-no-lost-updates");
        // A dynamic window's puts cross the same path into attached memory.
        final List<String> droppedDynamic = new ArrayList<>(dropped);
        droppedDynamic.addAll(List.of("dynamic.attach-fence-put-get", "dynamic.several-regions"));
        // Rank 0 and the last rank: on two nodes, on different ones, so the epoch's signals are messages.
        final List<String> early = List.of("pscw.start-waits-for-post", "pscw.put-after-post");
        // Every case whose derived target datatype is another process's: dtype.transpose-get's target type is
        // contiguous (its origin transposes), and the cases that target the caller itself never take a message.
        // On two nodes the right neighbour of some ranks, and rank 0 for the others, lie on the other node.
        final List<String> denseAcrossNodes = List.of("dtype.halo-column-put", "dtype.indexed-get",
            "dtype.transpose-put", "dtype.put-indexed-target", "dtype.accumulate-vector-atomic",
            "dtype.strided-accumulate-indexed", "dtype.strided-accumulate-subarray", "req.derived-types");
        // Attributes and error handlers are each process's own, on every flavour: one row each suffices.
        final List<String> noDeleteCallbacks = List.of("attr.delete-callbacks");
        final List<String> noErrhandlers = List.of("errhandler.user-handler", "errhandler.collective-error");
        final List<String> dense = new ArrayList<>(denseAcrossNodes);
        dense.add("flavour.message-derived-type");
        // The origin's checks are every flavour's: a transfer of nothing checked as if it moved data fails these.
        final List<String> refusedEmpty = List.of("rma.empty-null-and-mismatched", "rma.empty-request-based",
            "rma.empty-still-checked");
        // Win.allocate takes messages only to targets on other nodes: its rows run on two simulated nodes.
        return List.of(
            Arguments.of("drop-puts", Flavour.CREATE, MpjDevice.MULTICORE, 1, dropped),
            Arguments.of("drop-puts", Flavour.ALLOCATE, MpjDevice.NIODEV, 2, droppedAcrossNodes),
            Arguments.of("torn-accumulates", Flavour.CREATE, MpjDevice.NIODEV, 1, torn),
            Arguments.of("torn-accumulates", Flavour.ALLOCATE, MpjDevice.NIODEV, 2, tornAcrossNodes),
            Arguments.of("drop-puts", Flavour.DYNAMIC, MpjDevice.SHM, 1, droppedDynamic),
            Arguments.of("torn-accumulates", Flavour.DYNAMIC, MpjDevice.MULTICORE, 1, torn),
            Arguments.of("no-post-wait", Flavour.CREATE, MpjDevice.MULTICORE, 1, early),
            Arguments.of("no-post-wait", Flavour.ALLOCATE, MpjDevice.NIODEV, 2, early),
            Arguments.of("dense-targets", Flavour.CREATE, MpjDevice.SHM, 1, dense),
            Arguments.of("dense-targets", Flavour.ALLOCATE, MpjDevice.NIODEV, 2, denseAcrossNodes),
            Arguments.of("refuse-empty", Flavour.SHARED, MpjDevice.SHM, 1, refusedEmpty),
            Arguments.of("refuse-empty", Flavour.DYNAMIC, MpjDevice.MULTICORE, 1, refusedEmpty),
            Arguments.of("separate-regions", Flavour.DYNAMIC, MpjDevice.SHM, 1, List.of("dynamic.touching-regions")),
            Arguments.of("no-delete-callbacks", Flavour.ALLOCATE, MpjDevice.SHM, 1, noDeleteCallbacks),
            Arguments.of("no-errhandlers", Flavour.DYNAMIC, MpjDevice.MULTICORE, 1, noErrhandlers));
    }

    @ParameterizedTest(name = "{0} {1} {2} {3} node(s)")
    @MethodSource("faults")
    @Timeout(120)
    void shouldFailTheCasesThatCheckTheSpoiledBehaviour(final String fault, final Flavour flavour,
        final MpjDevice device, final int nodes, final List<String> expectedToFail) throws Exception
    {
        final String refusal = nodes > 1 ? SimulatedCluster.unavailableReason() : null;
        assumeTrue(refusal == null, () -> "skipped: " + refusal);
        final List<String> only = new ArrayList<>(expectedToFail);
        only.add("attr.name");
        final ConfigurationRun run = Jobs.matrix(CASE_TIMEOUT_MS, only, List.of("--message-fault=" + fault))
            .run(Configuration.of(device, nodes == 1 ? 3 : 4, flavour, nodes, ConformanceRank.DEFAULT_PROVIDER));
        final String table = new MatrixReport(List.of(run)).consoleTable();
        System.out.print(fault + ", " + flavour.call() + ", " + device.deviceName() + ":\n" + table);

        assertNull(run.unavailable(), table);
        for (final String id : expectedToFail)
        {
            final CaseResult result = run.results().get(id);
            assertTrue(result != null && !result.status().isGood(), id + " should fail under " + fault + ":\n" + table);
        }
        assertEquals(Status.PASS, run.results().get("attr.name").status(),
            "attr.name does not depend on what " + fault + " spoils:\n" + table);
    }
}
