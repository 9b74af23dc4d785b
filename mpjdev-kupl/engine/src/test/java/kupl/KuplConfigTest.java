package kupl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link KuplConfig#fromVariables}: every variable's accepted values and what they select,
 * and for refused values an error that names the variable, the value and what is allowed
 * (never KUPL's quiet fallback to a default). Also the table of {@link KuplEnv} in docs/configuration.md.
 */
class KuplConfigTest
{
    @Test
    void shouldUseDocumentedDefaultsForEmptyEnvironment()
    {
        final KuplConfig config = KuplConfig.fromVariables(Map.of());

        assertAll(
            () -> assertEquals(FenceAlgorithm.RD, config.fenceAlgorithm()),
            () -> assertEquals(ShmType.POSIX, config.shmType()),
            () -> assertFalse(config.hugePages()),
            () -> assertFalse(config.onPackage()),
            () -> assertEquals(Path.of("/dev/shm"), config.directory()),
            () -> assertEquals(KuplConfig.AUTO_SPINS, config.waitSpins()),
            () -> assertEquals(KuplConfig.AUTO_YIELD, config.waitYieldNs()),
            () -> assertEquals(250_000_000L, config.livenessIntervalNs()),
            () -> assertEquals(config, KuplConfig.defaults()));
    }

    @Test
    void shouldTreatBlankValuesAsUnsetAndTrimOthers()
    {
        final KuplConfig config = KuplConfig.fromVariables(Map.of(
            "KUPL_SHM_FENCE_ALGORITHM", " 1 ", "KUPL_SHM_TYPE", "", "KUPL_SHM_LIVENESS_MS", "  "));

        assertEquals(FenceAlgorithm.LINEAR, config.fenceAlgorithm());
        assertEquals(ShmType.POSIX, config.shmType());
        assertEquals(250_000_000L, config.livenessIntervalNs());
    }

    @ParameterizedTest
    @EnumSource(FenceAlgorithm.class)
    void shouldSelectFenceAlgorithmByNumber(final FenceAlgorithm algorithm)
    {
        final KuplConfig config = KuplConfig.fromVariables(Map.of("KUPL_SHM_FENCE_ALGORITHM", algorithm.envValue()));

        assertEquals(algorithm, config.fenceAlgorithm());
        assertEquals(algorithm == FenceAlgorithm.LINEAR ? "1" : "2", algorithm.envValue());
    }

    @ParameterizedTest
    @EnumSource(ShmType.class)
    void shouldSelectShmTypeByName(final ShmType type)
    {
        assertEquals(type, KuplConfig.fromVariables(Map.of("KUPL_SHM_TYPE", type.envValue())).shmType());
    }

    @Test
    void shouldAcceptHugePagesAndOnPackageMemoryWithSls()
    {
        final KuplConfig config = KuplConfig.fromVariables(Map.of(
            "KUPL_SHM_TYPE", "sls", "KUPL_SHM_ENABLE_HUGEPAGE", "y", "KUPL_SHM_ON_PACKAGE", "y"));

        assertTrue(config.hugePages());
        assertTrue(config.onPackage());
    }

    @Test
    void shouldReadNoAsOff()
    {
        final KuplConfig config = KuplConfig.fromVariables(Map.of(
            "KUPL_SHM_TYPE", "sls", "KUPL_SHM_ENABLE_HUGEPAGE", "n", "KUPL_SHM_ON_PACKAGE", "n"));

        assertFalse(config.hugePages());
        assertFalse(config.onPackage());
    }

    @Test
    void shouldReadDirectoryAndWaitSettings()
    {
        final KuplConfig config = KuplConfig.fromVariables(Map.of("KUPL_SHM_DIR", "/tmp/kupl-x",
            "KUPL_SHM_WAIT_SPINS", "123", "KUPL_SHM_WAIT_YIELD_US", "7", "KUPL_SHM_LIVENESS_MS", "100"));

        assertAll(
            () -> assertEquals(Path.of("/tmp/kupl-x"), config.directory()),
            () -> assertEquals(123, config.waitSpins()),
            () -> assertEquals(7_000L, config.waitYieldNs()),
            () -> assertEquals(100_000_000L, config.livenessIntervalNs()));
    }

    @Test
    void shouldAcceptBoundsOfNumericSettings()
    {
        final KuplConfig low = KuplConfig.fromVariables(Map.of(
            "KUPL_SHM_WAIT_SPINS", "0", "KUPL_SHM_WAIT_YIELD_US", "0", "KUPL_SHM_LIVENESS_MS", "1"));
        final KuplConfig high = KuplConfig.fromVariables(Map.of("KUPL_SHM_WAIT_SPINS", "auto",
            "KUPL_SHM_WAIT_YIELD_US", "60000000", "KUPL_SHM_LIVENESS_MS", "4000"));
        final KuplConfig auto = KuplConfig.fromVariables(Map.of("KUPL_SHM_WAIT_YIELD_US", "auto"));

        assertAll(
            () -> assertEquals(0, low.waitSpins()),
            () -> assertEquals(0, low.waitYieldNs()),
            () -> assertEquals(1_000_000L, low.livenessIntervalNs()),
            () -> assertEquals(KuplConfig.AUTO_SPINS, high.waitSpins()),
            () -> assertEquals(60_000_000_000L, high.waitYieldNs()),
            () -> assertEquals(KuplConfig.AUTO_YIELD, auto.waitYieldNs()),
            () -> assertEquals(4_000_000_000L, high.livenessIntervalNs()));
    }

    private static final String YIELD_RANGE = "give `auto` or a number of microseconds from 0 to 60000000";

    static Stream<Arguments> refusedChoices()
    {
        return Stream.of(
            Arguments.of("KUPL_SHM_FENCE_ALGORITHM", "0", "use one of 1, 2 (default 2)"),
            Arguments.of("KUPL_SHM_FENCE_ALGORITHM", "3", "use one of 1, 2 (default 2)"),
            Arguments.of("KUPL_SHM_FENCE_ALGORITHM", "rd", "use one of 1, 2 (default 2)"),
            Arguments.of("KUPL_SHM_FENCE_ALGORITHM", "linear", "use one of 1, 2 (default 2)"),
            Arguments.of("KUPL_SHM_TYPE", "xpmem", "use one of posix, sls (default posix)"),
            Arguments.of("KUPL_SHM_TYPE", "POSIX", "use one of posix, sls (default posix)"),
            Arguments.of("KUPL_SHM_ENABLE_HUGEPAGE", "yes", "use one of y, n (default n)"),
            Arguments.of("KUPL_SHM_ENABLE_HUGEPAGE", "1", "use one of y, n (default n)"),
            Arguments.of("KUPL_SHM_ON_PACKAGE", "Y", "use one of y, n (default n)"),
            Arguments.of("KUPL_SHM_ON_PACKAGE", "true", "use one of y, n (default n)"),
            Arguments.of("KUPL_SHM_WAIT_SPINS", "-1", "give `auto` or a count from 0 to 2147483647"),
            Arguments.of("KUPL_SHM_WAIT_SPINS", "many", "give `auto` or a count from 0 to 2147483647"),
            Arguments.of("KUPL_SHM_WAIT_SPINS", "2147483648", "give `auto` or a count from 0 to 2147483647"),
            Arguments.of("KUPL_SHM_WAIT_YIELD_US", "-5", YIELD_RANGE),
            Arguments.of("KUPL_SHM_WAIT_YIELD_US", "60000001", YIELD_RANGE),
            Arguments.of("KUPL_SHM_WAIT_YIELD_US", "1.5", YIELD_RANGE),
            // 0 would mean checking without pause: the allowed range starts at 1.
            Arguments.of("KUPL_SHM_LIVENESS_MS", "0", "give a number of milliseconds from 1 to 4000"),
            Arguments.of("KUPL_SHM_LIVENESS_MS", "-1", "give a number of milliseconds from 1 to 4000"),
            Arguments.of("KUPL_SHM_LIVENESS_MS", "4001", "give a number of milliseconds from 1 to 4000"),
            Arguments.of("KUPL_SHM_LIVENESS_MS", "soon", "give a number of milliseconds from 1 to 4000"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("refusedChoices")
    void shouldRefuseValueNamingVariableAndAllowedValues(final String variable, final String value,
        final String allowed)
    {
        final KuplException error = assertThrows(KuplException.class,
            () -> KuplConfig.fromVariables(Map.of(variable, value)));

        assertTrue(error.getMessage().startsWith(variable + "=" + value + " is not allowed: "), error.getMessage());
        assertTrue(error.getMessage().contains(allowed), error.getMessage());
    }

    @Test
    void shouldRefuseHugePagesWithPosix()
    {
        final KuplException error = assertThrows(KuplException.class,
            () -> KuplConfig.fromVariables(Map.of("KUPL_SHM_ENABLE_HUGEPAGE", "y")));

        assertTrue(error.getMessage().contains("KUPL_SHM_ENABLE_HUGEPAGE=y needs KUPL_SHM_TYPE=sls (it is posix)"),
            error.getMessage());
    }

    @Test
    void shouldRefuseOnPackageMemoryWithPosix()
    {
        final KuplException error = assertThrows(KuplException.class,
            () -> KuplConfig.fromVariables(Map.of("KUPL_SHM_TYPE", "posix", "KUPL_SHM_ON_PACKAGE", "y")));

        assertTrue(error.getMessage().contains("KUPL_SHM_ON_PACKAGE=y needs KUPL_SHM_TYPE=sls (it is posix)"),
            error.getMessage());
    }

    @Test
    void shouldDropHugePagesWhenSwitchingShmType()
    {
        final KuplConfig sls = KuplConfig.fromVariables(Map.of("KUPL_SHM_TYPE", "sls", "KUPL_SHM_ENABLE_HUGEPAGE", "y"));

        final KuplConfig posix = sls.withShmType(ShmType.POSIX);

        assertEquals(ShmType.POSIX, posix.shmType());
        assertFalse(posix.hugePages());
    }

    @Test
    void shouldRefuseNonPositiveLivenessInterval()
    {
        final KuplConfig defaults = KuplConfig.defaults();

        final KuplException error = assertThrows(KuplException.class, () -> new KuplConfig(defaults.fenceAlgorithm(),
            defaults.shmType(), false, false, defaults.directory(), KuplConfig.AUTO_SPINS, 0, 0));

        assertTrue(error.getMessage().contains("livenessIntervalNs=0"), error.getMessage());
    }

    @Test
    void shouldListEveryChoiceVariableWithItsDefaultAmongAllowedValues()
    {
        for (final KuplEnv variable : KuplEnv.values())
        {
            if (!variable.allowedValues().isEmpty())
            {
                assertTrue(variable.allowedValues().contains(variable.defaultValue()), variable.name());
            }
            // Every default must itself be accepted.
            KuplConfig.fromVariables(Map.of(variable.name(), variable.defaultValue()));
        }
    }

    @Test
    void shouldPrintOneTableRowPerVariable()
    {
        final List<String> lines = KuplEnv.markdownTable().lines().toList();

        assertEquals("| variable | default | values | meaning |", lines.get(0));
        assertEquals("|---|---|---|---|", lines.get(1));
        assertEquals(KuplEnv.values().length + 2, lines.size(), KuplEnv.markdownTable());
        for (final KuplEnv variable : KuplEnv.values())
        {
            final List<String> rows = lines.stream()
                .filter(l -> l.startsWith("| `" + variable.name() + "` | `" + variable.defaultValue() + "` | ")).toList();
            assertEquals(1, rows.size(), variable + " in\n" + KuplEnv.markdownTable());
            final String row = rows.get(0);
            assertTrue(row.endsWith(" | " + variable.description() + " |"), row);
            for (final String allowed : variable.allowedValues())
            {
                assertTrue(row.contains("`" + allowed + "`"), row);
            }
        }
    }

    @Test
    void shouldNameTheFourDocumentedVariablesExactly()
    {
        final List<String> names = Arrays.stream(KuplEnv.values()).map(Enum::name).toList();

        assertTrue(names.containsAll(List.of("KUPL_SHM_FENCE_ALGORITHM", "KUPL_SHM_TYPE", "KUPL_SHM_ENABLE_HUGEPAGE",
            "KUPL_SHM_ON_PACKAGE")), names.toString());
    }
}
