package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** MPJ Express's starter's end-of-stream trace after a merged EXIT is forgiven, and nothing else. */
class StarterEndOfStreamTest
{
    private static final String TRACE = """
        java.util.NoSuchElementException: No line found
        \tat java.base/java.util.Scanner.nextLine(Scanner.java:1690)
        \tat runtime.starter.IOMessagesThread.serverSocketInit(IOMessagesThread.java:69)
        \tat runtime.starter.IOMessagesThread.run(IOMessagesThread.java:57)
        """;
    private static final String GOOD_JOB = "MPJ Express (0.44) is started in the cluster configuration with niodev\n" +
        "rank 0 of 1: allgather ok\nStopping Process <0> on <vm>\n";

    @Test
    void shouldForgiveTheTraceThatFollowsAMergedExit()
    {
        final JobResult result = JobResult.judge(0, false, GOOD_JOB + "EXIT@Ping#\n" + TRACE, Duration.ZERO);

        assertEquals(List.of(), result.failureLines(), result.output());
        assertEquals(0, result.exitCode());
    }

    @Test
    void shouldCountTheTraceWhenNoExitCameFirst()
    {
        // A daemon connection lost before its EXIT: the same trace is then a failure.
        final JobResult result = JobResult.judge(0, false, GOOD_JOB + TRACE, Duration.ZERO);

        assertEquals(JobResult.FAILED_IN_OUTPUT, result.exitCode());
    }

    @Test
    void shouldForgiveOnlyAsManyTracesAsMergedExits()
    {
        final JobResult result = JobResult.judge(0, false, GOOD_JOB + "EXIT@Ping#\n" + TRACE + TRACE, Duration.ZERO);

        assertEquals(4, result.failureLines().size(), result.output());
    }

    @Test
    void shouldKeepARanksOwnExceptionBesideAForgivenTrace()
    {
        final JobResult result = JobResult.judge(0, false,
            "java.lang.IllegalStateException: rank 1 broke\n\tat app.Main.main(Main.java:3)\nEXIT@Ping#\n" + TRACE,
            Duration.ZERO);

        assertEquals(List.of("java.lang.IllegalStateException: rank 1 broke", "\tat app.Main.main(Main.java:3)"),
            result.failureLines());
    }
}
