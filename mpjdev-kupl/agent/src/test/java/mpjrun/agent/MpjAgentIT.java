package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import mpjrun.HelloAllgather;
import mpjrun.JobResult;
import mpjrun.JvmOptionsProbe;
import mpjrun.MpjHome;
import mpjrun.MpjJobs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent in real JVMs, as users run it: the packaged kupl-agent jar given through
 * {@code JAVA_TOOL_OPTIONS} (MPJ Express's starter) or {@code -javaagent:} (a rank). Runs in the
 * integration-test phase, after the jar is made (system property {@code kupl.agent.jar}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MpjAgentIT
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(40);
    private static Path agentJar;
    private static Path mpjHome;

    @BeforeAll
    static void findTheAgent() throws Exception
    {
        agentJar = PackagedAgent.jar();
        mpjHome = MpjHome.prepare(MpjHome.defaultDirectory());
    }

    @Test
    void shouldLetMpjExpressStarterAcceptShmAndHandTheJobToTheShmLauncher() throws Exception
    {
        final JobResult result = starter("-np", "2", "-dev", "shm", "-cp", testClasses(),
            HelloAllgather.class.getName());

        assertFalse(result.output().contains("does not support the <shm> device"), result.output());
        result.requireSuccess();
        assertTrue(result.output().contains("rank 1 of 2: " + HelloAllgather.OK_LINE), result.output());
    }

    @Test
    void shouldGiveTheRanksTheRankJvmDefaultsAndTheStarterLineJvmOptionsAfterThem() throws Exception
    {
        // A JVM option before the class, as MPJ Express's starter takes them: it replaces the default collector.
        final JobResult result = starter("-np", "2", "-dev", "shm", "-Dprobe.flag=1", "-cp", testClasses(),
            JvmOptionsProbe.class.getName()).requireSuccess();
        final JobResult parallel = starter("-np", "2", "-dev", "shm", "-XX:+UseParallelGC", "-cp", testClasses(),
            JvmOptionsProbe.class.getName()).requireSuccess();

        assertTrue(result.output().matches("(?s).*rank 1 " + JvmOptionsProbe.COLLECTOR + "[^\\n]*Copy.*") &&
            result.output().matches("(?s).*rank 1 jvm options: \\[.*-XX:\\+UseSerialGC.*-Dprobe\\.flag=1.*"),
            result.output());
        assertTrue(parallel.output().matches("(?s).*rank 1 " + JvmOptionsProbe.COLLECTOR + "[^\\n]*PS Scavenge.*") &&
            !parallel.output().contains("UseSerialGC"), parallel.output());
    }

    @Test
    void shouldRejectABadShmCommandLineWithExitCode2() throws Exception
    {
        final JobResult result = starter("-np", "0", "-dev", "shm", HelloAllgather.class.getName());

        assertEquals(2, result.launcherExitCode(), result.output());
        assertTrue(result.output().contains("-np 0: give the number of ranks"), result.output());
    }

    @Test
    void shouldLeaveMpjExpressOwnDevicesAlone() throws Exception
    {
        final JobResult result = starter("-np", "2", "-cp", testClasses(), HelloAllgather.class.getName())
            .requireSuccess();

        assertTrue(result.output().contains("rank 1 of 2: " + HelloAllgather.OK_LINE), result.output());
    }

    @Test
    void shouldFindARegisteredDeviceThroughTheServiceLoader() throws Exception
    {
        final JobResult result = probe(true, FakeDeviceProvider.NAME, agentOnlyClassPath()).requireSuccess();

        assertTrue(result.output().contains(DeviceLookupProbe.CHOSEN + FakeDevice.class.getName()), result.output());
        assertTrue(result.output().contains("fake device initialised with [0, 1, fakedev]"), result.output());
    }

    @Test
    void shouldKnowOnlyTheHardCodedDevicesWithoutTheAgent() throws Exception
    {
        final JobResult result = probe(false, FakeDeviceProvider.NAME);

        assertFalse(result.succeeded(), result.output());
        assertTrue(result.output().contains("No matching device found"), result.output());
    }

    @Test
    void shouldNameTheRegisteredDevicesForAnUnknownOne() throws Exception
    {
        final JobResult result = probe(true, "nosuchdev", agentOnlyClassPath());

        assertFalse(result.succeeded(), result.output());
        assertTrue(result.output().contains("device=nosuchdev is neither one of MPJ Express's [smpdev, niodev, " +
            "hybdev, mxdev] nor registered as a xdev.spi.DeviceProvider service [") &&
            result.output().contains(FakeDeviceProvider.NAME), result.output());
    }

    @Test
    void shouldSayWhatIsWrongAndLetMpjExpressRunWhenTheClassPathShadowsTheAgentWithoutByteBuddy() throws Exception
    {
        // This module's classes (unrelocated) come first and Byte Buddy is missing: the JVM must not die in premain.
        final String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !entry.contains("byte-buddy")).collect(Collectors.joining(File.pathSeparator));
        final JobResult result = probe(true, FakeDeviceProvider.NAME, classPath);

        assertTrue(result.output().contains("kupl agent: could not instrument mpjdev.javampjdev.MPJDev") &&
            result.output().contains("Byte Buddy is missing"), result.output());
        assertTrue(result.output().contains("No matching device found"), result.output());
    }

    /** MPJ Express's own starter, the agent given as users give it. */
    private static JobResult starter(final String... args) throws Exception
    {
        return MpjStarter.run(mpjHome, agentJar, JOB_TIMEOUT, List.of(args));
    }

    /** One JVM that initialises MPJ Express's device layer as a rank would, with or without the agent. */
    private static JobResult probe(final boolean withAgent, final String device) throws Exception
    {
        return probe(withAgent, device, System.getProperty("java.class.path"));
    }

    private static JobResult probe(final boolean withAgent, final String device, final String classPath)
        throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(MpjJobs.java().toString()));
        if (withAgent)
        {
            command.add("-javaagent:" + agentJar);
        }
        // MPJDev logs through log4j 1.2, which a rank finds in MPJ_HOME/lib.
        command.addAll(List.of("-cp", classPath + File.pathSeparator +
            mpjHome.resolve("lib/log4j-1.2.jar"), DeviceLookupProbe.class.getName(), device));
        return MpjJobs.runCommand(command, Map.of(), Path.of(System.getProperty("user.dir")), JOB_TIMEOUT);
    }

    /**
     * The test programs and MPJ Express, but not this module's classes nor Byte Buddy: everything of the
     * agent then comes from the packaged jar, as for a user.
     */
    private static String agentOnlyClassPath()
    {
        return testClasses() + File.pathSeparator + mpjHome.resolve("lib/mpj.jar");
    }

    /** This module's test programs, and the device module's (HelloAllgather), as a user's -cp. */
    private static String testClasses()
    {
        try
        {
            return Path.of(System.getProperty("user.dir"), "target", "test-classes") + File.pathSeparator +
                Path.of(HelloAllgather.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (final java.net.URISyntaxException e)
        {
            throw new IllegalStateException(e);
        }
    }
}
