package samples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import mpjrun.JobResult;
import mpjrun.MpjJobs;
import samples.MpjJob;
import samples.docs.DocCommands.Command;

/**
 * Every command that README.md and the pages of docs/ show works as written, from the repository root, after
 * only the README's first command: each names scripts, options, classes, modules and paths that exist or that
 * the scripts it runs build ({@link CommandCheck}); the help of every script runs; and the short jobs (one or two
 * ranks of a sample on one node) run and succeed. Commands that need root and network namespaces ({@code -nodes}),
 * Open MPI, minutes of benchmarking or another repository are checked, not run.
 */
class DocumentedCommandsTest
{
    private static final Path ROOT = MpjJob.ROOT;
    private static final Duration JOB_TIMEOUT = Duration.ofSeconds(60);
    private static final long HELP_TIMEOUT_S = 30;
    private static final Map<String, String> HELP = new ConcurrentHashMap<>();

    @Test
    void shouldNameOnlyScriptsOptionsClassesAndPathsThatExist()
    {
        final List<Command> commands = documented();
        assertTrue(commands.stream().filter(Command::fenced).count() >= 40,
            "found only " + commands.stream().filter(Command::fenced).count() + " commands in code blocks of " +
                documents() + ": is the extraction broken?");
        final CommandCheck check = new CommandCheck(ROOT, DocumentedCommandsTest::help, true);
        final List<String> problems = commands.stream().flatMap(command -> check.problems(command).stream()).toList();
        assertEquals("", String.join("\n", problems), "documented commands that would not work as written");
    }

    @Test
    void shouldReportEveryKindOfMistake()
    {
        final String page = """
            ```sh
            bin/mpjrun -np 2 -dev shm -cp samples/target/classes samples.rma.NoSuchSample
            bin/mpjrun -np 2 -dev shm -frobnicate -cp samples/target/classes samples.rma.NeighbourPut
            bin/mpjrun -np 2 -dev nosuchdev -cp samples/target/classes samples.rma.NeighbourPut
            bin/mpjrun -dev shm -cp samples/target/classes samples.rma.NeighbourPut
            bin/mpjrun -np 2 -dev shm -cp nosuchmodule/target/classes x.Y
            bin/sample NoSuchName
            bin/sample -dev niodev HeatStencil
            bin/bench rma --no-such-option
            bin/bench nosuchbench
            bin/conformance --reduced extra
            bin/nosuchscript -h
            KUPL_SHM_NO_SUCH=1 bin/sample HeatStencil
            KUPL_SHM_TYPE=fast bin/sample HeatStencil
            mvn -q verify -pl samples -Dtest=NoSuchTest
            mvn -q verify -pl nosuchmodule
            java -cp benchmarks/target/classes bench.rma.CreateWindowRank
            java -cp samples/target/classes:api/target/api-9.9.jar samples.rma.HeatStencil
            ```
            See `bin/faults --no-such-flag` and the file docs/nosuch.md:
            ```bash
            cat docs/nosuch.md && bin/test --quick
            java -cp docs/nosuch samples.rma.HeatStencil
            ```
            """;
        final List<String> problems = problems(page, true);
        final List<String> expected = List.of(
            "class samples.rma.NoSuchSample not found",
            "bin/mpjrun has no option -frobnicate",
            "-dev nosuchdev: not one of",
            "-np is missing",
            "nosuchmodule/target/classes: nosuchmodule is not a module",
            "no sample named NoSuchName",
            "-dev niodev: bin/sample takes",
            "bin/bench rma has no option --no-such-option",
            "bin/bench has no benchmark named nosuchbench",
            "bin/conformance takes no argument extra",
            "no script bin/nosuchscript",
            "KUPL_SHM_NO_SUCH is not a variable",
            "KUPL_SHM_TYPE=fast: not one of",
            "-Dtest=NoSuchTest: no test class NoSuchTest",
            "-pl nosuchmodule: no such module",
            "-cp names benchmarks/target/classes, which bin/demo does not build",
            "api/target/api-9.9.jar: api's build makes api-0.1.0-SNAPSHOT.jar",
            "bin/faults has no option --no-such-flag",
            "no file docs/nosuch");
        for (final String problem : expected)
        {
            assertTrue(problems.stream().anyMatch(line -> line.contains(problem)),
                "should report '" + problem + "' among:\n" + String.join("\n", problems));
        }
        assertFalse(problems.stream().anyMatch(line -> line.contains("bin/test --quick")),
            "bin/test --quick is the developers' loop:\n" + String.join("\n", problems));
    }

    @Test
    void shouldCatchACommandThatNeedsAModuleNoScriptBuilds()
    {
        // Before bin/mpjrun built the modules its -cp names, this command of the README failed with "class
        // bench.rma.CreateWindowRank not found" after bin/demo alone.
        final String page = """
            ```sh
            bin/mpjrun -np 2 -dev niodev -nodes 2 -cp benchmarks/target/classes bench.rma.CreateWindowRank 15
            ```
            """;
        assertEquals(List.of("README.md:2: `bin/mpjrun -np 2 -dev niodev -nodes 2 -cp benchmarks/target/classes " +
            "bench.rma.CreateWindowRank 15`: -cp names benchmarks/target/classes, which neither bin/demo nor bin/mpjrun " +
            "builds"), problems(page, false));
        assertEquals(List.of(), problems(page, true));
    }

    @Test
    void shouldKeepTheModelOfWhatTheScriptsBuild()
    {
        final String common = read(ROOT.resolve("bin/lib/common.sh"));
        assertTrue(common.contains("kupl_mvn -q package -DskipTests -pl samples,mpjdev-kupl/agent -am"),
            "bin/demo's build (kupl_build) changed: update CommandCheck.DEMO_BUILDS");
        assertTrue(read(ROOT.resolve("bin/mpjrun")).contains("kupl_build_classpath_modules \"$@\"") &&
            common.contains("kupl_build_classpath_modules()"), "bin/mpjrun no longer builds the modules -cp names");
        CommandCheck.SCRIPT_BUILDS.forEach((script, module) -> assertTrue(
            read(ROOT.resolve(script)).contains("kupl_module_classpath " + module), script + " no longer builds " +
                module + ": update CommandCheck.SCRIPT_BUILDS"));
        assertTrue(read(ROOT.resolve("bin/sample")).contains("for package in samples.rma samples.kupl"),
            "bin/sample looks its samples up elsewhere now: update CommandCheck.sample");
    }

    @Test
    void shouldOpenWithTheTwoCommandsOfAFreshMachine()
    {
        final List<Command> readme = DocCommands.extract("README.md", read(ROOT.resolve("README.md"))).stream()
            .filter(Command::fenced).toList();
        assertEquals(List.of("bin/demo", "bin/test"), readme.stream().limit(2).map(Command::text).toList(),
            "the README's first two commands: the main job and the tests");
        assertTrue(read(ROOT.resolve(".ci/run")).lines().anyMatch(line -> line.strip().equals("bin/test")),
            "CI runs the README's test command");
    }

    @Test
    void shouldRunTheHelpOfEveryScriptAsWritten()
    {
        final List<String> helps = documented().stream().map(Command::text)
            .filter(text -> text.matches("bin/[\\w-]+ (-h|--help)")).distinct().toList();
        assertTrue(helps.contains("bin/mpjrun -h") && helps.contains("bin/bench -h"),
            "the documents should show bin/mpjrun -h and bin/bench -h, found " + helps);
        for (final String command : helps)
        {
            final String script = command.substring(0, command.indexOf(' '));
            assertFalse(help(script.equals("bin/demo") ? "bin/sample" : script).isBlank(), command + " printed nothing");
        }
    }

    @Test
    void shouldRunTheShortJobsAsWritten() throws IOException, InterruptedException
    {
        final List<List<String>> jobs = documented().stream().filter(Command::fenced)
            .flatMap(command -> ShellWords.commands(command.text()).stream()).filter(DocumentedCommandsTest::isShortJob)
            .distinct().toList();
        assertFalse(jobs.isEmpty(), "no documented job of one or two ranks of a sample to run");
        for (final List<String> job : jobs)
        {
            final List<String> command = new ArrayList<>(job);
            command.set(0, ROOT.resolve(job.get(0)).toString());
            final JobResult result = MpjJobs.runCommand(command, Map.of("KUPL_MPJRUN_CLASSPATH", samplesClasspath(),
                "JAVA_HOME", System.getProperty("java.home")), ROOT, JOB_TIMEOUT);
            assertTrue(result.succeeded(), String.join(" ", job) + ": " + result.summary() + "\n" + result.output());
        }
    }

    /** bin/mpjrun -np 1 or 2 on shm or multicore, of a sample's class, on this node. */
    private static boolean isShortJob(final List<String> words)
    {
        final String line = String.join(" ", words);
        return line.matches("bin/mpjrun -np [12] -dev (shm|multicore) -cp samples/target/classes samples\\.[\\w.]+");
    }

    // The documents and the scripts' help.

    /** README.md, docs/*.md and the hand-written index of docs/benchmarks (the generated pages beside it left out). */
    static List<Path> documents()
    {
        final List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"),
            ROOT.resolve("docs/benchmarks/README.md")));
        try (Stream<Path> pages = Files.list(ROOT.resolve("docs")))
        {
            pages.filter(page -> page.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return documents;
    }

    private static List<Command> documented()
    {
        return documents().stream().flatMap(document ->
            DocCommands.extract(ROOT.relativize(document).toString(), read(document)).stream()).toList();
    }

    private static List<String> problems(final String page, final boolean mpjrunBuildsClassPathModules)
    {
        final CommandCheck check = new CommandCheck(ROOT, DocumentedCommandsTest::help, mpjrunBuildsClassPathModules);
        return DocCommands.extract("README.md", page).stream().flatMap(command -> check.problems(command).stream())
            .toList();
    }

    /**
     * A script's help: what {@code SCRIPT -h} prints (run once; bin/mpjrun with this JVM's class path, so that it
     * builds nothing), or for bin/test, which passes -h to Maven, its header comment.
     */
    static String help(final String script)
    {
        return HELP.computeIfAbsent(script, name -> name.equals("bin/test") ? header(name) : runHelp(name));
    }

    private static String header(final String script)
    {
        final StringBuilder header = new StringBuilder();
        for (final String line : read(ROOT.resolve(script)).lines().skip(1).toList())
        {
            if (!line.startsWith("#"))
            {
                break;
            }
            header.append(line.replaceFirst("^# ?", "")).append('\n');
        }
        return header.toString();
    }

    private static String runHelp(final String script)
    {
        final Path file = ROOT.resolve(script);
        if (!Files.isExecutable(file))
        {
            return "";
        }
        try
        {
            final ProcessBuilder builder = new ProcessBuilder(file.toString(), "-h").directory(ROOT.toFile())
                .redirectErrorStream(true);
            builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
            builder.environment().put("KUPL_MPJRUN_CLASSPATH", System.getProperty("java.class.path"));
            final Process process = builder.start();
            process.getOutputStream().close();
            final byte[] output = process.getInputStream().readAllBytes();
            assertTrue(process.waitFor(HELP_TIMEOUT_S, TimeUnit.SECONDS), script + " -h did not end");
            final String text = new String(output, StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), script + " -h failed:\n" + text);
            return text;
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The samples' classes and what they need at run time: what bin/mpjrun's Java side runs on. */
    private static String samplesClasspath()
    {
        final String runtime = read(Path.of(System.getProperty("samples.runtime.classpath.file"))).strip();
        return System.getProperty("samples.classes") + (runtime.isEmpty() ? "" : File.pathSeparator + runtime);
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
