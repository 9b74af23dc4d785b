package mpjrun;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import mpjrun.process.RankJvmDefaults;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rank JVM defaults ({@link RankJvmDefaults}) reach the rank JVMs that {@code bin/mpjrun -dev shm}
 * starts, give way to the user's {@code -jvmargs}, and go with {@code KUPL_RANK_JVM_DEFAULTS=off}: real
 * jobs, each rank reporting its JVM's input arguments and collector ({@link JvmOptionsProbe}).
 */
@Tag("slow")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RankJvmOptionsTest
{
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);
    /** The serial collector's young generation, as its MXBean is named. */
    private static final String SERIAL_COLLECTOR = "Copy";

    @Test
    void shouldStartEveryRankWithTheDefaults() throws Exception
    {
        final JobResult result = script(Map.of(), "-np", "2", "-dev", "shm", "-cp", testClasses(),
            JvmOptionsProbe.class.getName()).requireSuccess();

        for (final String option : RankJvmDefaults.defaults(2, Runtime.getRuntime().availableProcessors()))
        {
            assertTrue(result.output().contains("rank 0 " + JvmOptionsProbe.OPTIONS) &&
                count(result.output(), option) == 2, "no " + option + " on every rank: " + result.output());
        }
        assertTrue(collectorOfRank1(result).contains(SERIAL_COLLECTOR), result.output());
    }

    @Test
    void shouldLetTheUsersCollectorAndHeapReplaceTheDefaults() throws Exception
    {
        // With both collectors given the JVM would not start; with -Xms above our maximum heap neither.
        final JobResult result = script(Map.of(), "-np", "2", "-dev", "shm", "-jvmargs", "-XX:+UseParallelGC -Xms64m",
            "-cp", testClasses(), JvmOptionsProbe.class.getName()).requireSuccess();

        assertFalse(result.output().contains("UseSerialGC") || result.output().contains("MaxRAMPercentage"),
            result.output());
        assertTrue(collectorOfRank1(result).contains("PS Scavenge"), result.output());
    }

    @Test
    void shouldStartRanksWithTheJdksOwnChoicesWhenSwitchedOff() throws Exception
    {
        final JobResult result = script(Map.of(RankJvmDefaults.SWITCH, "off"), "-np", "2", "-dev", "shm",
            "-cp", testClasses(), JvmOptionsProbe.class.getName()).requireSuccess();

        assertTrue(result.output().contains("rank 0 " + JvmOptionsProbe.OPTIONS), result.output());
        assertFalse(result.output().contains("UseSerialGC") || result.output().contains("MaxRAMPercentage"),
            result.output());
    }

    @Test
    void shouldRefuseAnUnknownSwitchValueWithTheVariablesName() throws Exception
    {
        final JobResult result = script(Map.of(RankJvmDefaults.SWITCH, "maybe"), "-np", "2", "-dev", "shm",
            "-cp", testClasses(), JvmOptionsProbe.class.getName());

        assertFalse(result.succeeded(), result.output());
        assertTrue(result.output().contains("KUPL_RANK_JVM_DEFAULTS=maybe is not allowed: use one of [on, off]"),
            result.output());
    }

    /** The names of rank 1's collectors, as {@link JvmOptionsProbe} prints them (in no set order). */
    static String collectorOfRank1(final JobResult result)
    {
        final String start = "rank 1 " + JvmOptionsProbe.COLLECTOR;
        return result.output().lines().filter(line -> line.startsWith(start)).findFirst().orElse("(none)");
    }

    private static int count(final String text, final String word)
    {
        return text.split(java.util.regex.Pattern.quote(word), -1).length - 1;
    }

    /** {@code bin/mpjrun} with this JVM's class path, so that it builds nothing. */
    private static JobResult script(final Map<String, String> environment, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(repositoryRoot().resolve("bin/mpjrun").toString()));
        command.addAll(List.of(args));
        final Map<String, String> variables = new HashMap<>(environment);
        variables.put("KUPL_MPJRUN_CLASSPATH", System.getProperty("java.class.path"));
        variables.put("JAVA_HOME", System.getProperty("java.home"));
        return MpjJobs.runCommand(command, variables, Path.of(System.getProperty("user.dir")), JOB_TIMEOUT);
    }

    private static Path repositoryRoot()
    {
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent())
        {
            if (Files.isRegularFile(dir.resolve("bin/mpjrun")))
            {
                return dir;
            }
        }
        throw new IllegalStateException("no bin/mpjrun at or above " + System.getProperty("user.dir"));
    }

    private static String testClasses()
    {
        return Path.of(System.getProperty("user.dir"), "target", "test-classes") + File.pathSeparator;
    }
}
