package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * {@link StarterVerdict} on multicore rank reports: the status and the line it gives for each way a job ends
 * (the jobs themselves: {@code MpjRunTest}).
 */
class StarterVerdictTest
{
    private static final StarterVerdict THREE_RANKS = new StarterVerdict(3, null);

    @Test
    void shouldSucceedWhenEveryRankReturned()
    {
        assertVerdict(0, List.of(), "returned 1", "returned 0", "returned 2", "end");
    }

    @Test
    void shouldNameTheRankThatThrewBeforeTheExitTheStarterCalledThen()
    {
        assertVerdict(1, List.of("rank 2 failed (see the exception above); MPJ Express's starter exited with 0"),
            "returned 0", "failed 2", "exit 2 0", "end");
    }

    @Test
    void shouldNameTheRanksOfAKilledJvm()
    {
        assertVerdict(1, List.of("ranks 0, 2 never returned from main: the ranks' JVM was killed (kill -9?) or " +
            "crashed, and MPJ Express's starter exited with 0"), "returned 1");
    }

    @Test
    void shouldEndAsShmDoesWhenARanksExitZeroCutsOthersOff()
    {
        assertVerdict(ShmRankMain.AFTER_ANOTHER_RANK, List.of("rank 1 called System.exit(0) while ranks 0, 2 had " +
            "not returned from main: in a multicore job every rank is a thread of one JVM, and System.exit ends them " +
            "all; call it after MPI.Finalize, or not at all"), "exit 1 0", "end");
    }

    @Test
    void shouldTakeTheStatusOfARanksExit()
    {
        assertVerdict(3, List.of("rank 2 called System.exit(3)"), "returned 0", "returned 1", "exit 2 3",
            "finalized 2", "end");
    }

    @Test
    void shouldAcceptExitZeroAfterFinalize()
    {
        assertVerdict(0, List.of(), "exit 0 0", "finalized 0", "finalized 1", "finalized 2", "end");
    }

    @Test
    void shouldNameASignalThatEndedTheJvm()
    {
        assertVerdict(143, List.of("the ranks' JVM was ended with status 143 (a signal, or System.exit from a thread " +
            "of no rank) while ranks 0, 1, 2 had not returned from main: in a multicore job every rank is a thread " +
            "of one JVM, and System.exit ends them all; call it after MPI.Finalize, or not at all"), "exit - 143",
            "end");
    }

    @Test
    void shouldFailRanksCutOffByAnExitItDidNotSee()
    {
        assertVerdict(1, List.of("rank 1 never returned from main, and the JVM ended without a System.exit call this " +
            "launcher saw"), "returned 0", "returned 2", "end");
    }

    private static void assertVerdict(final int status, final List<String> problems, final String... report)
    {
        final List<String> said = new ArrayList<>();

        assertEquals(status, THREE_RANKS.judge(RankReport.of(report), said), said::toString);
        assertEquals(problems, said);
    }
}
