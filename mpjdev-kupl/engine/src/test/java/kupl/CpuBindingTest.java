package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/**
 * {@link CpuBinding}: which CPU each rank of a node gets under each {@code KUPL_SHM_BIND} value, the error
 * of {@code cpu} when the ranks outnumber the CPUs, and a real binding of one thread (read back from
 * {@code /proc}), which leaves the other threads and the engine's count of CPUs as they were.
 */
class CpuBindingTest
{
    private static final BitSet THREE_SPARSE = BitSet.valueOf(new long[] {0b1010_0100}); // CPUs 2, 5 and 7

    @Test
    void theValuesOfTheVariableSelectThePolicies()
    {
        assertEquals(CpuBinding.Policy.AUTO, CpuBinding.configured(Map.of()));
        assertEquals(CpuBinding.Policy.AUTO, CpuBinding.configured(Map.of("KUPL_SHM_BIND", " ")));
        assertEquals(CpuBinding.Policy.CPU, CpuBinding.configured(Map.of("KUPL_SHM_BIND", "cpu")));
        assertEquals(CpuBinding.Policy.NONE, CpuBinding.configured(Map.of("KUPL_SHM_BIND", " none ")));
        final KuplException refused = assertThrows(KuplException.class,
            () -> CpuBinding.configured(Map.of("KUPL_SHM_BIND", "core")));
        assertEquals("KUPL_SHM_BIND=core is not allowed: use one of [auto, cpu, none] (default auto)",
            refused.getMessage());
    }

    @Test
    void eachRankGetsTheCpuOfItsIndexAmongTheAllowedOnes()
    {
        for (final CpuBinding.Policy policy : new CpuBinding.Policy[] {CpuBinding.Policy.AUTO, CpuBinding.Policy.CPU})
        {
            assertEquals(2, CpuBinding.choose(policy, 0, 3, THREE_SPARSE, 8));
            assertEquals(5, CpuBinding.choose(policy, 1, 3, THREE_SPARSE, 8));
            assertEquals(7, CpuBinding.choose(policy, 2, 3, THREE_SPARSE, 8));
            assertEquals(5, CpuBinding.choose(policy, 1, 2, THREE_SPARSE, 8));
        }
    }

    @Test
    void nothingIsBoundWithNoneForOneRankOrWhereAutoFindsTooFewCpus()
    {
        assertEquals(CpuBinding.NOT_BOUND, CpuBinding.choose(CpuBinding.Policy.NONE, 0, 2, THREE_SPARSE, 8));
        assertEquals(CpuBinding.NOT_BOUND, CpuBinding.choose(CpuBinding.Policy.AUTO, 0, 1, THREE_SPARSE, 8));
        assertEquals(CpuBinding.NOT_BOUND, CpuBinding.choose(CpuBinding.Policy.CPU, 0, 1, THREE_SPARSE, 8));
        assertEquals(CpuBinding.NOT_BOUND, CpuBinding.choose(CpuBinding.Policy.AUTO, 3, 4, THREE_SPARSE, 8));
        // A container's quota of two CPUs, though the mask has three: three ranks are too many.
        assertEquals(CpuBinding.NOT_BOUND, CpuBinding.choose(CpuBinding.Policy.AUTO, 0, 3, THREE_SPARSE, 2));
    }

    @Test
    void cpuFailsNamingTheRanksAndTheCpusWhenTheRanksOutnumberThem()
    {
        final KuplException tooMany = assertThrows(KuplException.class,
            () -> CpuBinding.choose(CpuBinding.Policy.CPU, 0, 4, THREE_SPARSE, 8));
        assertEquals("KUPL_SHM_BIND=cpu needs a CPU for each rank: 4 ranks on this node, and this process may " +
            "use 3 CPUs ({2, 5, 7}); start fewer ranks, or set KUPL_SHM_BIND=auto or none", tooMany.getMessage());
        final KuplException quota = assertThrows(KuplException.class,
            () -> CpuBinding.choose(CpuBinding.Policy.CPU, 0, 3, THREE_SPARSE, 2));
        assertTrue(quota.getMessage().contains("may use 2 CPUs ({2, 5, 7}, the JVM counts 2)"), quota.getMessage());
    }

    @Test
    void anIndexOutsideTheRanksIsRefused()
    {
        assertThrows(IllegalArgumentException.class,
            () -> CpuBinding.choose(CpuBinding.Policy.AUTO, 2, 2, THREE_SPARSE, 8));
        assertThrows(IllegalArgumentException.class,
            () -> CpuBinding.choose(CpuBinding.Policy.AUTO, -1, 2, THREE_SPARSE, 8));
    }

    @Test
    void aBoundThreadRunsOnItsCpuOnlyAndTheOthersKeepTheirs() throws Exception
    {
        final String before = allowedCpusOfThisThread();
        final int cpusBefore = CpuBinding.availableCpus();
        assumeTrue(cpusBefore >= 2 && Runtime.getRuntime().availableProcessors() >= 2,
            "binding needs two CPUs to show, this machine has " + before);
        final int expected = parseCpuList(before).stream().skip(1).findFirst().orElseThrow();

        final String[] seen = CompletableFuture.supplyAsync(() ->
        {
            final int cpu = CpuBinding.bindCallingThread(CpuBinding.Policy.CPU, 1, 2);
            return new String[] {Integer.toString(cpu), allowedCpusOfThisThread(),
                Integer.toString(Runtime.getRuntime().availableProcessors()),
                Integer.toString(CpuBinding.availableCpus())};
        }, runnable -> Thread.ofPlatform().start(runnable)).get();

        assertEquals(Integer.toString(expected), seen[0]);
        assertEquals(Integer.toString(expected), seen[1], "the bound thread's Cpus_allowed_list");
        // HotSpot counts the calling thread's CPUs; the engine's count is the one from before.
        assertEquals("1", seen[2]);
        assertEquals(Integer.toString(cpusBefore), seen[3]);
        assertEquals(before, allowedCpusOfThisThread(), "the test's own thread was bound too");
    }

    /** The kernel's list of the CPUs the calling thread may run on, e.g. {@code 0-1}. */
    private static String allowedCpusOfThisThread()
    {
        try
        {
            return Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
                .substring("Cpus_allowed_list:".length()).strip();
        }
        catch (final IOException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /** The CPUs of one of the kernel's lists ({@code 0-3,8,10-11}). */
    private static BitSet parseCpuList(final String list)
    {
        final BitSet cpus = new BitSet();
        for (final String range : list.split(","))
        {
            final String[] ends = range.split("-");
            cpus.set(Integer.parseInt(ends[0]), Integer.parseInt(ends[ends.length - 1]) + 1);
        }
        return cpus;
    }
}
