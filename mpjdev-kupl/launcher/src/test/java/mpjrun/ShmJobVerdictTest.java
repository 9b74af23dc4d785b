package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import mpjrun.process.ProcessJob;
import org.junit.jupiter.api.Test;

/** What the shm launcher reports for a job's ends, as the kit recorded them (no processes here). */
class ShmJobVerdictTest
{
    private static final String SIGKILL = "was killed by signal 9 (SIGKILL), exit status 137";

    @Test
    void shouldNameTheRankThatDiedFirstThoughTheRanksItKilledWereReadBefore()
    {
        // Read after a stop: rank 3's failure (caused by rank 1's death) came first, then rank 1's, then rank 0's.
        final ShmJobVerdict verdict = judge(new int[] {75, 137, 137, 75}, List.of(3, 1, 0), null, true);

        assertEquals(new ShmJobVerdict(137, "rank 1 (pid 1001) " + SIGKILL + "; stopped the other ranks"), verdict);
    }

    @Test
    void shouldSayARankEndedBeforeItJoined()
    {
        final ShmJobVerdict verdict = judge(new int[] {137, 137, 75}, List.of(1, 2), null, false);

        assertEquals(new ShmJobVerdict(137, "rank 1 (pid 1001) " + SIGKILL + ", before it joined the job; " +
            "stopped the other ranks"), verdict);
    }

    @Test
    void shouldGiveTheHubsReasonWhenOnlyRanksItRefusedFailed()
    {
        final ShmJobVerdict verdict = judge(new int[] {75, 0}, List.of(1, 0), "rank 1 of 2 exited with status 0 " +
            "before it joined the job", true);

        assertEquals(new ShmJobVerdict(1, "the job could not start: rank 1 of 2 exited with status 0 before it " +
            "joined the job"), verdict);
    }

    @Test
    void shouldNameTheRankThatEndedFirstWhenTheOthersFailedBecauseOfIt()
    {
        // Rank 1 returned from main after joining while ranks 0 and 2 still needed it.
        final ShmJobVerdict verdict = judge(new int[] {75, 0, 75}, List.of(1, 0, 2), null, true);

        assertEquals(new ShmJobVerdict(75, "rank 0 (pid 1000) exited with status 75: it failed because another rank " +
            "had ended (the first to end: rank 1, which exited with status 0)"), verdict);
    }

    @Test
    void shouldEndWithZeroWhenEveryRankEndedWellJoinedOrNot()
    {
        assertEquals(new ShmJobVerdict(0, null), judge(new int[] {0, 0, 0}, List.of(2, 0, 1), null, false));
    }

    /** The verdict on ranks with {@code codes} that ended on their own in {@code ended}; each rank's pid is 1000 + rank. */
    private static ShmJobVerdict judge(final int[] codes, final List<Integer> ended, final String startFailure,
        final boolean joined)
    {
        final int firstFailed = ended.stream().filter(rank -> codes[rank] != 0).findFirst().orElse(-1);
        final ProcessJob.JobExit exit = new ProcessJob.JobExit(codes, firstFailed, false, Duration.ofSeconds(1), ended);
        return ShmJobVerdict.judge(exit, startFailure, rank -> joined, rank -> 1000L + rank);
    }
}
