package samples.kupl;

import org.junit.jupiter.api.Test;
import samples.MpjJob;
import samples.SeedExampleOutput;

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
        SeedExampleOutput.assertCheckSuccessOnEveryRankButZero(MpjJob.run(KuplWinAllocExample.class, RANKS));
    }

    @Test
    void shouldShowEveryRankSeeingEveryIncrementAfterEachFence() throws Exception
    {
        SeedExampleOutput.assertEveryFenceOk(MpjJob.run(KuplFenceExample.class, RANKS), KuplFenceExample.ITERS);
    }
}
