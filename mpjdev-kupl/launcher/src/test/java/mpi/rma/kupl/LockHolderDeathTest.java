package mpi.rma.kupl;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A process (or rank thread) that dies holding a window lock does not leave the others waiting
 * for ever: a lock request fails within a few liveness intervals, naming the dead rank.
 */
@Tag("slow")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LockHolderDeathTest
{
    private static final Pattern FAILED = Pattern.compile("LOCK WAIT FAILED after (\\d+) ms: ERR_PROC_FAILED (.*)");

    @ParameterizedTest(name = "{0}, rank 1 ends by {1}")
    @CsvSource({"MULTICORE, return", "NIODEV, halt"})
    void shouldFailTheWaiterNamingTheDeadHolder(final MpjDevice device, final String death) throws Exception
    {
        final JobSpec spec = new JobSpec(2, MpjJobs.currentClassPath(), List.of(),
            LockHolderDeathProgram.class.getName(), List.of(death), false);
        final JobResult result = MpjJobs.run(device, spec, Duration.ofSeconds(60), MpjHome.defaultDirectory(),
            Map.of("KUPL_SHM_LIVENESS_MS", "200"));

        final Matcher failed = result.output().lines().map(FAILED::matcher).filter(Matcher::matches).findFirst()
            .orElseThrow(() -> new AssertionError("rank 0's lock did not fail:\n" + result.summary()));
        assertTrue(Long.parseLong(failed.group(1)) < 10_000, failed.group());
        assertTrue(failed.group(2).contains("rank 1"), failed.group());
        System.out.println(device + ": " + failed.group());
    }
}
