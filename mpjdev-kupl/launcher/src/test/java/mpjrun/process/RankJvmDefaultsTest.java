package mpjrun.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import kupl.KuplException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RankJvmDefaultsTest
{
    private static final Map<String, String> NO_ENVIRONMENT = Map.of();

    @Test
    void shouldGiveEachOfTwoRanksOnTwoCoresTheSerialCollectorAndAQuarterOfTheMemory()
    {
        // 2 cores: the JVM already starts its minimum of 2 compiler threads, so no CICompilerCount.
        assertEquals(List.of("-XX:+UseSerialGC", "-XX:MaxRAMPercentage=25"), RankJvmDefaults.defaults(2, 2));
    }

    @Test
    void shouldSizeTheCompilerToEachRanksShareOfTheCoresWhenRanksDoNotOutnumberThem()
    {
        // 16 cores alone: 12 compiler threads; a share of 4 cores: 3.
        assertEquals(List.of("-XX:+UseSerialGC", "-XX:CICompilerCount=3", "-XX:MaxRAMPercentage=12.5"),
            RankJvmDefaults.defaults(4, 16));
    }

    @Test
    void shouldGiveTheLeastCompilerAndAShareOfTheMemoryWhenRanksOutnumberTheCores()
    {
        assertEquals(List.of("-XX:+UseSerialGC", "-XX:CICompilerCount=2", "-XX:MaxRAMPercentage=1.56"),
            RankJvmDefaults.defaults(32, 16));
        assertEquals(List.of("-XX:+UseSerialGC", "-XX:MaxRAMPercentage=6.25"), RankJvmDefaults.defaults(8, 2));
    }

    @Test
    void shouldKeepTheJvmsDefaultHeapForOneRankAndNeverGoBelowWhatTheOptionCanSay()
    {
        assertEquals(List.of("-XX:+UseSerialGC", "-XX:MaxRAMPercentage=25"), RankJvmDefaults.defaults(1, 1));
        assertTrue(RankJvmDefaults.defaults(100_000, 2).contains("-XX:MaxRAMPercentage=0.01"));
    }

    @ParameterizedTest
    @CsvSource({"1, 2", "2, 2", "3, 2", "4, 3", "8, 4", "16, 12", "64, 18"})
    void shouldCountCompilerThreadsAsHotSpotDoes(final int cores, final int threads)
    {
        assertEquals(threads, RankJvmDefaults.jvmCompilerThreads(cores));
    }

    @Test
    void shouldPutTheUsersOptionsAfterTheDefaults()
    {
        assertEquals(List.of("-XX:+UseSerialGC", "-XX:MaxRAMPercentage=12.5", "-Dmy.flag=1", "-ea"),
            RankJvmDefaults.rankOptions(4, 2, List.of("-Dmy.flag=1", "-ea"), NO_ENVIRONMENT));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-XX:+UseG1GC", "-XX:+UseParallelGC", "-XX:+UseZGC", "-XX:-UseSerialGC",
        "-XX:+UseEpsilonGC"})
    void shouldDropTheSerialCollectorForACollectorTheUserChooses(final String collector)
    {
        // Two collectors on one command line stop the JVM: "Multiple garbage collectors selected".
        assertEquals(List.of("-XX:MaxRAMPercentage=12.5", collector),
            RankJvmDefaults.rankOptions(4, 2, List.of(collector), NO_ENVIRONMENT));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-Xmx1g", "-Xms2g", "-XX:MaxHeapSize=512m", "-XX:InitialHeapSize=1g",
        "-XX:MaxRAMPercentage=40", "-XX:InitialRAMPercentage=5"})
    void shouldDropTheHeapShareForAHeapTheUserSizes(final String heap)
    {
        // A user's -Xms above our maximum would stop the JVM: "Initial heap size set to a larger value".
        assertEquals(List.of("-XX:+UseSerialGC", heap), RankJvmDefaults.rankOptions(4, 2, List.of(heap),
            NO_ENVIRONMENT));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-XX:CICompilerCount=6", "-XX:ActiveProcessorCount=8"})
    void shouldDropTheCompilerCountForACompilerOrProcessorCountTheUserGives(final String option)
    {
        assertEquals(List.of("-XX:+UseSerialGC", "-XX:MaxRAMPercentage=12.5", option),
            RankJvmDefaults.rankOptions(4, 16, List.of(option), NO_ENVIRONMENT));
    }

    @ParameterizedTest
    @ValueSource(strings = {"off", " off "})
    void shouldGiveOnlyTheUsersOptionsWhenSwitchedOff(final String value)
    {
        assertEquals(List.of("-Xmx1g"), RankJvmDefaults.rankOptions(4, 2, List.of("-Xmx1g"),
            Map.of(RankJvmDefaults.SWITCH, value)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"on", ""})
    void shouldApplyTheDefaultsWhenSwitchedOnOrLeftEmpty(final String value)
    {
        assertEquals(RankJvmDefaults.defaults(4, 2), RankJvmDefaults.rankOptions(4, 2, List.of(),
            Map.of(RankJvmDefaults.SWITCH, value)));
    }

    @Test
    void shouldRefuseAnUnknownSwitchValueNamingTheVariableAndItsValues()
    {
        final KuplException e = assertThrows(KuplException.class,
            () -> RankJvmDefaults.rankOptions(4, 2, List.of(), Map.of(RankJvmDefaults.SWITCH, "no")));

        assertEquals("KUPL_RANK_JVM_DEFAULTS=no is not allowed: use one of [on, off] (default on)", e.getMessage());
    }

    @Test
    void shouldRefuseRanksOrCoresBelowOne()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> RankJvmDefaults.defaults(0, 2));

        assertEquals("ranks=0 and cores=2 must be at least 1", e.getMessage());
    }
}
