package conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import mpjrun.MpjDevice;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every case must be able to fail: the suite runs against deliberately broken providers
 * ({@code conformance.broken}, chosen with {@code -Dmpi.rma.provider}) and the cases that check
 * the spoiled behaviour fail, while a case that does not depend on it still passes.
 */
@Tag("slow")
class BrokenProvidersTest
{
    private static final long CASE_TIMEOUT_MS = 4000;

    static List<Arguments> brokenProviders()
    {
        return List.of(
            Arguments.of("broken-nofence", List.of("fence.waits-for-all")),
            Arguments.of("broken-private", List.of("rma.put-ring", "layout.same-memory",
                "lock.lock-all-sync-barrier-sync", "req.rget-wait", "acc.type-int", "fop.int-sum-increments",
                "pattern.list-cas", "acc.pair-maxloc-minloc", "fop.pair-swap-chain")),
            Arguments.of("broken-misplaced", List.of("layout.contiguous-default", "layout.contiguous-absolute-index",
                "layout.zero-size-takes-no-room")),
            Arguments.of("broken-nolock", List.of("lock.exclusive-excludes", "lock.shared-excludes-exclusive",
                "lock.lock-all-excludes-exclusive", "lock.exclusive-excludes-shared", "lock.exclusive-excludes-lock-all",
                "lock.exclusive-read-modify-write")),
            Arguments.of("broken-nofree", List.of("free.memory-unusable")),
            Arguments.of("broken-nowait", List.of("pscw.start-waits-for-post", "pscw.put-after-post",
                "pscw.wait-waits-for-complete")),
            Arguments.of("broken-contiguous-types", List.of("dtype.halo-column-put", "dtype.indexed-get",
                "dtype.accumulate-vector-atomic", "dtype.nested", "dtype.transpose-put", "dtype.transpose-get",
                "dtype.put-indexed-target", "dtype.strided-accumulate-indexed", "dtype.strided-accumulate-subarray",
                "req.derived-types")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenProviders")
    @Timeout(120)
    void shouldFailTheCasesThatCheckTheSpoiledBehaviour(final String provider, final List<String> expectedToFail)
        throws Exception
    {
        final List<String> only = new ArrayList<>(expectedToFail);
        only.add("attr.name");
        final ConfigurationRun run = Jobs.matrix(CASE_TIMEOUT_MS, only)
            .run(new Configuration(MpjDevice.MULTICORE, 3, 2, "posix", provider));
        final String table = new MatrixReport(List.of(run)).consoleTable();

        assertNull(run.unavailable(), table);
        for (final String id : expectedToFail)
        {
            final CaseResult result = run.results().get(id);
            assertTrue(result != null && !result.status().isGood(), id + " should fail under " + provider + ":\n" + table);
        }
        assertEquals(Status.PASS, run.results().get("attr.name").status(),
            "attr.name does not depend on what " + provider + " spoils:\n" + table);
    }

    @Test
    @Timeout(120)
    void shouldTimeOutAHangingCaseAndRunTheNextOnes() throws Exception
    {
        final long start = System.nanoTime();
        final ConfigurationRun run = Jobs.matrix(3000, List.of("fence.waits-for-all", "attr.name", "query.self"))
            .run(new Configuration(MpjDevice.MULTICORE, 2, 2, "posix", "broken-stuckfence"));
        final String table = new MatrixReport(List.of(run)).consoleTable();
        final long seconds = (System.nanoTime() - start) / 1_000_000_000L;

        // Cases run in catalog order: query.self makes the first window, whose fence (in free) hangs on rank 0.
        assertEquals(Status.TIMEOUT, run.results().get("query.self").status(), table);
        assertTrue(run.results().get("query.self").message().contains("still running after 3000 ms"), table);
        assertEquals(Status.PASS, run.results().get("attr.name").status(), table);
        assertEquals(Status.PASS, run.results().get("fence.waits-for-all").status(), table);
        assertTrue(seconds < 60, "the job should end soon after the hanging case's time limit, took " + seconds + " s");
    }
}
