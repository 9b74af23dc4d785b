package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import mpjrun.JobResult;
import mpjrun.JobSpec;
import mpjrun.MpjDevice;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Blocking point-to-point on the direct path makes no object per message once warm, but the {@code mpi.Status}
 * that {@code Recv} returns: {@link PointToPointAllocationProgram} on 2 and 4 rank JVMs of -dev shm with the
 * packaged agent counts each rank thread's heap bytes per round trip of {@code Send} and {@code Recv} of 8 B,
 * 1 KiB and 64 KiB arrays and per {@code Sendrecv} of 1 KiB each way, which must be at most one status's bytes
 * (none where the JIT saw that the program drops the status) and less than one more object per round trip in
 * all rounds but one; that one may
 * hold a one-off array (a 64 KiB message that came before its receive was posted, staged in an array the reused
 * message record did not have yet), never an object per message.
 *
 * <p>What a loaded machine does to a wait is run on purpose too: with no spinning and no yielding every wait of
 * the 2-rank job sleeps on its doorbell, and checks that its peer is alive every millisecond, so that the paths a
 * descheduled peer sends waits down (a sleep, a liveness check reading {@code /proc}) are measured in every run,
 * not only when the machine happens to be busy. Both once allocated: a bell's sleep made an arena for its
 * timeout, and a liveness check read the file through strings, which showed as up to 34 bytes more per round
 * trip under a load average of 6.
 */
@Tag("slow")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PointToPointAllocationIT
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern STATUS = Pattern.compile(Pattern.quote(PointToPointAllocationProgram.STATUS_BYTES) +
        "(\\d+)");
    private static Path agentJar;

    @BeforeAll
    static void findTheAgent()
    {
        agentJar = PackagedAgent.jar();
    }

    /** The engine's wait settings for the job: as configured, or every wait sleeping and checking liveness. */
    static Stream<Arguments> jobs()
    {
        final Map<String, String> sleepingWaits = Map.of("KUPL_SHM_WAIT_SPINS", "0", "KUPL_SHM_WAIT_YIELD_US", "0",
            "KUPL_SHM_LIVENESS_MS", "1");
        return Stream.of(Arguments.of(2, "waits as configured", Map.of()),
            Arguments.of(4, "waits as configured", Map.of()),
            Arguments.of(2, "every wait sleeps and checks liveness each ms", sleepingWaits));
    }

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("jobs")
    void shouldMakeOnlyTheReturnedStatusPerRoundTrip(final int ranks, final String waits,
        final Map<String, String> environment) throws Exception
    {
        final JobSpec spec = new JobSpec(ranks, MpjJobs.currentClassPath(), List.of("-javaagent:" + agentJar),
            PointToPointAllocationProgram.class.getName(), List.of(), false);
        final JobResult result = MpjJobs.run(MpjDevice.SHM, spec, JOB_TIMEOUT, MpjHome.defaultDirectory(),
            environment).requireSuccess();

        final Matcher status = STATUS.matcher(result.output());
        assertTrue(status.find(), result.output());
        final long statusBytes = Long.parseLong(status.group(1));
        assertTrue(statusBytes > 0 && statusBytes <= 64, "an mpi.Status of " + statusBytes + " bytes?");
        final List<String> lines = Stream.of(result.output().split("\n"))
            .filter(line -> line.contains(PointToPointAllocationProgram.BYTES_PER_ROUND_TRIP)).sorted().toList();
        assertEquals(4 * ranks, lines.size(), result.output());
        for (final String line : lines)
        {
            final long[] rounds = Stream.of(line.substring(line.lastIndexOf('[') + 1, line.lastIndexOf(']')).split(", "))
                .mapToLong(Long::parseLong).toArray();
            // At most the returned Status (Sendrecv's is often dropped, and the JIT then does not make it) and
            // less than the smallest object (16 bytes) more: a few stray bytes a round (a rank that waited long
            // enough to sleep, on 2 cores with 4 ranks) are not an object per message.
            final long atMostStatus = LongStream.of(rounds).filter(bytes -> bytes < statusBytes + 16).count();
            // A one-off array of up to 128 KiB in a round of ROUND_TRIPS is below 66 bytes per round trip.
            final boolean oneOffOnly = LongStream.of(rounds).allMatch(bytes -> bytes < statusBytes + 66);
            assertTrue(atMostStatus >= rounds.length - 1 && oneOffOnly &&
                rounds.length == PointToPointAllocationProgram.ROUNDS,
                "bytes allocated per round trip (one mpi.Status is " + statusBytes + "):\n" + String.join("\n", lines));
        }
    }
}
