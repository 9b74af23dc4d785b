package architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.util.List;
import java.util.Map;
import java.util.Set;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;

import org.junit.jupiter.api.Test;

/**
 * The benchmarks' packages: {@code bench.harness} under everything, {@code bench.report} on it alone, each
 * benchmark on those two and on no other benchmark but the rank programs and kernels it runs, and the
 * fault-injection suite ({@code faults}, a module of its own) apart from the benchmarks.
 */
class BenchmarkPackagesTest
{
    /** Every benchmark's package. */
    private static final List<String> BENCHMARKS =
        List.of("apps", "cluster", "device", "engine", "jgf", "jvm", "rma", "scale");

    /**
     * The benchmarks whose code another one runs: the cluster runs the apps' kernels and the device's pair on
     * simulated nodes, the rank JVM benchmark runs LU's column broadcasts, and the device benchmark measures the
     * engine's fence beside MPJ Express's.
     */
    private static final Map<String, Set<String>> RUNS_CODE_OF = Map.of(
        "cluster", Set.of("apps", "device"),
        "jvm", Set.of("apps"),
        "device", Set.of("engine"));

    @Test
    void shouldKeepTheHarnessFreeOfTheBenchmarksAndTheirReports()
    {
        noClasses().that().resideInAPackage("bench.harness..")
            .should().dependOnClassesThat().resideInAnyPackage("bench.report..", "faults..")
            .orShould().dependOnClassesThat().resideInAnyPackage(packages(BENCHMARKS))
            .because("the harness is what every benchmark builds on: what it needs of one belongs in the harness")
            .check(ProjectClasses.all());
    }

    @Test
    void shouldKeepTheReportFreeOfTheBenchmarks()
    {
        noClasses().that().resideInAPackage("bench.report..")
            .should().dependOnClassesThat().resideInAnyPackage(packages(BENCHMARKS))
            .orShould().dependOnClassesThat().resideInAPackage("faults..")
            .because("the report renders what a benchmark hands it (pages, charts): a benchmark's own table belongs "
                + "in the benchmark's package")
            .check(ProjectClasses.all());
    }

    @Test
    void shouldKeepEachBenchmarkToItselfTheHarnessAndTheReport()
    {
        final List<ArchRule> rules = BENCHMARKS.stream().map(BenchmarkPackagesTest::keptToItself).toList();
        CompositeArchRule.of(rules).check(ProjectClasses.all());
    }

    @Test
    void shouldKeepTheFaultSuiteApartFromTheBenchmarks()
    {
        noClasses().that().resideInAPackage("faults..")
            .should().dependOnClassesThat().resideInAPackage("bench..")
            .orShould().dependOnClassesThat().resideInAPackage("..bench..")
            .because("faults (bin/faults) is a fault-injection suite, not a benchmark: it shares no code with them")
            .check(ProjectClasses.all());
    }

    /** The rule for one benchmark: no arrow to another benchmark but the ones it runs. */
    private static ArchRule keptToItself(final String benchmark)
    {
        final List<String> others = BENCHMARKS.stream()
            .filter(other -> !other.equals(benchmark) && !RUNS_CODE_OF.getOrDefault(benchmark, Set.of()).contains(other))
            .toList();
        return noClasses().that().resideInAPackage("bench." + benchmark + "..")
            .should().dependOnClassesThat().resideInAnyPackage(packages(others))
            .orShould().dependOnClassesThat().resideInAPackage("faults..")
            .because("bench." + benchmark + " shares code with the other benchmarks only through bench.harness and "
                + "bench.report: move what two benchmarks share there, or, for a rank program another benchmark runs, "
                + "add the arrow to RUNS_CODE_OF with its reason");
    }

    private static String[] packages(final List<String> benchmarks)
    {
        return benchmarks.stream().map(name -> "bench." + name + "..").toArray(String[]::new);
    }
}
