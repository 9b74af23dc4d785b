package mpjrun.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class JobJudgeTest
{
    @Test
    void shouldFindLinesNamingThrowablesAndStackFrames()
    {
        final String output = """
            rank 0 done
            Exception in thread "main" java.lang.IllegalStateException: boom
            \tat my.App.main(App.java:12)
            mpi.MPIException: bad rank
            an error occurred, said nobody
            """;
        assertEquals(List.of("Exception in thread \"main\" java.lang.IllegalStateException: boom",
            "\tat my.App.main(App.java:12)", "mpi.MPIException: bad rank"), JobJudge.failureLines(output));
    }

    @Test
    void shouldPutTheTimeLimitFirstThenTheLaunchersStatusThenTheOutput()
    {
        assertEquals(JobJudge.TIMED_OUT, JobJudge.verdict(3, true, List.of("x")));
        assertEquals(3, JobJudge.verdict(3, false, List.of("x")));
        assertEquals(JobJudge.FAILED_IN_OUTPUT, JobJudge.verdict(0, false, List.of("x")));
        assertEquals(0, JobJudge.verdict(0, false, List.of()));
    }
}
