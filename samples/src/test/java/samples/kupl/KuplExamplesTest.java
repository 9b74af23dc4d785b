package samples.kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import samples.FenceExampleOutput;
import samples.MpjJob;

/**
 * Runs the two KUPL seed examples on {@value #RANKS} ranks as real MPJ Express jobs
 * ({@link MpjJob}) and checks what they print.
 */
class KuplExamplesTest
{
    private static final int RANKS = 4;

    @Test
    void shouldCheckSuccessOnEveryRankButRankZero() throws Exception
    {
        final MpjJob.Run run = MpjJob.run(KuplWinAllocExample.class, RANKS);

        assertEquals(RANKS - 1, run.count("check success"), run.explain("every rank but 0 should print check success"));
        assertEquals(0, run.count("check fail"), run.explain("no rank should print check fail"));
    }

    @Test
    void shouldShowEveryRankSeeingEveryIncrementAfterEachFence() throws Exception
    {
        FenceExampleOutput.assertEveryFenceOk(MpjJob.run(KuplFenceExample.class, RANKS), KuplFenceExample.ITERS);
    }
}
