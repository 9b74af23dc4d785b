package samples.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import kupl.KuplEnv;
import mpjrun.DeviceName;
import mpjrun.MpjHome;
import mpjrun.StarterOption;

/**
 * Whether a documented command would work as written, from the repository root, after only the README's first
 * command ({@code bin/demo}, which builds the samples and what they need): its script exists and is executable,
 * every option is one the script's help lists (with a value where the help shows one), every main class has a
 * source with a {@code main} in a module on the command's class path, every path of the repository it names
 * exists or is made by the scripts the command runs, every module it names is built by then, and every
 * {@code KUPL_*} variable is one the engine reads, with a value it takes.
 *
 * <p>Placeholders that the reader replaces are not checked: paths under {@code my/}, classes in {@code my.},
 * {@code app.jar}, {@code machines}, {@code ...} and words in capitals ({@code NAME}, {@code DIR}, {@code N}).
 */
final class CommandCheck
{
    /** The modules {@code bin/demo} builds: kupl_build's {@code -pl samples,mpjdev-kupl/agent -am}. */
    static final Set<String> DEMO_BUILDS = Set.of("api", "mpjdev-kupl/engine", "mpjdev-kupl/device",
        "mpjdev-kupl/launcher", "mpjdev-kupl/agent", "samples");
    /** What {@code bin/mpjrun} adds to every rank's class path: the samples' classes and the project's jars. */
    private static final Set<String> ON_EVERY_RANK = Set.of("samples", "api", "mpjdev-kupl/engine",
        "mpjdev-kupl/device", "mpjdev-kupl/launcher");
    /** The module each script builds for itself (kupl_module_classpath), besides what bin/demo builds. */
    static final Map<String, String> SCRIPT_BUILDS = Map.of("bin/bench", "benchmarks", "bin/faults", "faults",
        "bin/conformance", "conformance");
    /** Made under the root's target/ by the launchers and scripts. */
    private static final Set<String> MADE_UNDER_TARGET = Set.of("target/mpj-home", "target/conformance");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])(--?[a-zA-Z][\\w-]*)");
    private static final Pattern BENCH_NAME = Pattern.compile("(?m)^  ([a-z]+)( [A-Z]+)?\\s+bench\\.([\\w.]*\\w)");
    private static final Pattern DEV_VALUES = Pattern.compile("-dev ([a-z]+(?:\\|[a-z]+)+)");
    private static final Pattern COMMAND_SUBSTITUTION = Pattern.compile("\\$\\(cat ([^)]+)\\)");
    private static final Pattern PWD_PATH = Pattern.compile("\\$PWD/([^\\s:]+)");
    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(.*)");
    private static final Pattern ALIAS = Pattern.compile("exec \"\\$\\(dirname \"\\$\\{BASH_SOURCE\\[0]}\"\\)/bench\" (\\w+)");

    /** How a script's options show in its help: whether each takes a value. */
    record Options(Map<String, Boolean> takesValue)
    {
        boolean knows(final String option)
        {
            return takesValue.containsKey(option);
        }

        boolean needsValue(final String option)
        {
            return takesValue.getOrDefault(option, false);
        }
    }

    private final Path root;
    private final Function<String, String> help;
    private final boolean mpjrunBuildsClassPathModules;
    private final Map<String, Options> options = new HashMap<>();

    /**
     * @param root                         the repository.
     * @param help                         a script's help text by its path ({@code bin/mpjrun}).
     * @param mpjrunBuildsClassPathModules whether {@code bin/mpjrun} builds the modules its {@code -cp} names
     *                                     (kupl_build_classpath_modules).
     */
    CommandCheck(final Path root, final Function<String, String> help, final boolean mpjrunBuildsClassPathModules)
    {
        this.root = root;
        this.help = help;
        this.mpjrunBuildsClassPathModules = mpjrunBuildsClassPathModules;
    }

    /** What is wrong with {@code command}, one line each; empty if nothing is. */
    List<String> problems(final DocCommands.Command command)
    {
        final List<String> problems = new ArrayList<>();
        for (final List<String> simple : ShellWords.commands(command.text()))
        {
            check(simple, command.fenced(), problems);
        }
        return problems.stream().map(problem -> command + ": " + problem).toList();
    }

    private void check(final List<String> words, final boolean whole, final List<String> problems)
    {
        if (words.stream().anyMatch(word -> word.startsWith("[")))
        {
            // A synopsis (bin/sample [-np N] NAME), not a command.
            return;
        }
        int i = 0;
        while (i < words.size() && ASSIGNMENT.matcher(words.get(i)).matches())
        {
            assignment(words.get(i++), problems);
        }
        if (i == words.size())
        {
            return;
        }
        final String program = words.get(i);
        final List<String> args = words.subList(i + 1, words.size());
        if (program.startsWith("bin/"))
        {
            script(program, args, whole, problems);
        }
        else if (program.equals("mvn"))
        {
            maven(args, problems);
        }
        else if (program.equals("java"))
        {
            java(args, problems);
        }
        else if (program.equals("export"))
        {
            args.forEach(arg -> assignment(arg, problems));
        }
    }

    private void assignment(final String word, final List<String> problems)
    {
        final Matcher m = ASSIGNMENT.matcher(word);
        if (!m.matches())
        {
            return;
        }
        final String name = m.group(1);
        final String value = m.group(2);
        if (name.startsWith("KUPL_"))
        {
            final KuplEnv variable = Arrays.stream(KuplEnv.values()).filter(v -> v.name().equals(name)).findFirst()
                .orElse(null);
            if (variable == null)
            {
                problems.add(name + " is not a variable the engine or the launcher reads (kupl.KuplEnv)");
            }
            else if (!variable.allowedValues().isEmpty() && !variable.allowedValues().contains(value))
            {
                problems.add(name + "=" + value + ": not one of " + variable.allowedValues());
            }
        }
        mentionedPaths(value, DEMO_BUILDS, problems);
    }

    /** Paths in a word: $PWD/PATH, $(cat PATH), or the word itself. */
    private void mentionedPaths(final String word, final Set<String> built, final List<String> problems)
    {
        final Matcher pwd = PWD_PATH.matcher(word);
        while (pwd.find())
        {
            path(pwd.group(1), built, problems);
        }
        final Matcher cat = COMMAND_SUBSTITUTION.matcher(word);
        while (cat.find())
        {
            path(cat.group(1).strip(), built, problems);
        }
        if (!word.contains("$"))
        {
            path(word, built, problems);
        }
    }

    // Scripts.

    private void script(final String program, final List<String> args, final boolean whole,
        final List<String> problems)
    {
        final Path file = root.resolve(program);
        if (!Files.isRegularFile(file))
        {
            problems.add("no script " + program);
            return;
        }
        if (!Files.isExecutable(file))
        {
            problems.add(program + " is not executable");
        }
        final Matcher alias = ALIAS.matcher(read(file));
        if (program.startsWith("bin/bench-") && alias.find())
        {
            final List<String> benchArgs = new ArrayList<>(List.of(alias.group(1)));
            benchArgs.addAll(args);
            bench(benchArgs, problems);
            return;
        }
        switch (program)
        {
            case "bin/mpjrun" -> mpjrun(args, whole, problems);
            case "bin/sample", "bin/demo" -> sample(args, problems);
            case "bin/bench" -> bench(args, problems);
            case "bin/test" -> test(args, problems);
            case "bin/conformance", "bin/faults" -> plainOptions(program, args, problems);
            default ->
            {
                // A script without options of its own to check.
            }
        }
    }

    private void mpjrun(final List<String> args, final boolean whole, final List<String> problems)
    {
        final Options known = options("bin/mpjrun");
        final Set<String> built = new LinkedHashSet<>(DEMO_BUILDS);
        final Set<String> classPathModules = new LinkedHashSet<>();
        boolean helpOnly = false;
        boolean processes = false;
        boolean jar = false;
        int i = 0;
        for (; i < args.size() && args.get(i).startsWith("-"); i++)
        {
            final String option = args.get(i);
            if (option.equals("-h") || option.equals("--help"))
            {
                helpOnly = true;
                continue;
            }
            if (!known.knows(option))
            {
                problems.add("bin/mpjrun has no option " + option + " (bin/mpjrun -h)");
                continue;
            }
            if (!known.needsValue(option))
            {
                continue;
            }
            if (i + 1 >= args.size())
            {
                problems.add(option + " needs a value");
                break;
            }
            final String value = args.get(++i);
            switch (option)
            {
                case "-np" -> processes = true;
                case "-dev" -> device(value, problems);
                case "-cp", "-classpath" -> classPathModules.addAll(classPath(value, problems));
                case "-jar" -> jar = true;
                default ->
                {
                    // -jvmargs, -nodes, -machinesfile, ...: their values are the user's.
                }
            }
        }
        if (mpjrunBuildsClassPathModules)
        {
            classPathModules.stream().filter(this::writesRuntimeClassPath).forEach(built::add);
        }
        for (final String module : classPathModules)
        {
            if (!built.contains(module))
            {
                problems.add("-cp names " + module + "/target/classes, which neither bin/demo nor bin/mpjrun builds");
            }
        }
        if (helpOnly || jar)
        {
            return;
        }
        if (i >= args.size())
        {
            if (whole)
            {
                problems.add("no main class");
            }
            return;
        }
        if (whole && !processes)
        {
            problems.add("-np is missing");
        }
        final Set<String> searched = new LinkedHashSet<>(ON_EVERY_RANK);
        searched.addAll(classPathModules);
        mainClass(args.get(i), searched, problems);
    }

    private void sample(final List<String> args, final List<String> problems)
    {
        final Options known = options("bin/sample");
        final Matcher devices = DEV_VALUES.matcher(help.apply("bin/sample"));
        final List<String> allowed = devices.find() ? List.of(devices.group(1).split("\\|")) : List.of();
        int i = 0;
        for (; i < args.size() && args.get(i).startsWith("-"); i++)
        {
            final String option = args.get(i);
            if (!known.knows(option))
            {
                problems.add("bin/sample has no option " + option + " (bin/sample -h)");
            }
            else if (known.needsValue(option) && i + 1 < args.size())
            {
                final String value = args.get(++i);
                if (option.equals("-dev") && !allowed.contains(value))
                {
                    problems.add("-dev " + value + ": bin/sample takes " + allowed);
                }
            }
        }
        if (i >= args.size() || placeholder(args.get(i)))
        {
            return;
        }
        final String name = args.get(i);
        if (name.contains("."))
        {
            mainClass(name, DEMO_BUILDS, problems);
        }
        else if (Stream.of("rma", "kupl").noneMatch(pkg ->
            Files.isRegularFile(root.resolve("samples/src/main/java/samples/" + pkg + "/" + name + ".java"))))
        {
            problems.add("no sample named " + name + " in samples.rma or samples.kupl");
        }
    }

    private void bench(final List<String> args, final List<String> problems)
    {
        final String text = help.apply("bin/bench");
        if (args.isEmpty() || args.get(0).equals("-h") || args.get(0).equals("--help"))
        {
            return;
        }
        final String name = args.get(0);
        if (placeholder(name))
        {
            return;
        }
        final Matcher names = BENCH_NAME.matcher(text);
        String section = null;
        boolean positional = false;
        while (names.find())
        {
            if (names.group(1).equals(name))
            {
                final int end = nextSection(text, names.end());
                section = text.substring(names.start(), end);
                positional = names.group(2) != null;
                final String source = "benchmarks/src/main/java/bench/" + names.group(3).replace('.', '/') + ".java";
                if (!Files.isRegularFile(root.resolve(source)))
                {
                    problems.add("bin/bench " + name + " runs bench." + names.group(3) + ", which has no source");
                }
            }
        }
        if (section == null)
        {
            problems.add("bin/bench has no benchmark named " + name + " (bin/bench -h)");
            return;
        }
        final int common = text.indexOf("Every one also takes:");
        final Options known = parseOptions(section + (common >= 0 ? text.substring(common) : ""));
        for (int i = 1; i < args.size(); i++)
        {
            final String arg = args.get(i);
            if (arg.startsWith("-"))
            {
                if (!known.knows(arg))
                {
                    problems.add("bin/bench " + name + " has no option " + arg + " (bin/bench -h)");
                }
                else if (known.needsValue(arg))
                {
                    i++;
                }
            }
            else if (!positional)
            {
                problems.add("bin/bench " + name + " takes no argument " + arg);
            }
            else
            {
                mentionedPaths(arg, DEMO_BUILDS, problems);
            }
        }
    }

    /** Where the section of one benchmark's options ends: the next benchmark, or the options they all take. */
    private static int nextSection(final String text, final int from)
    {
        final Matcher next = BENCH_NAME.matcher(text);
        final int name = next.find(from) ? next.start() : text.length();
        final int common = text.indexOf("Every one also takes:", from);
        return common >= 0 ? Math.min(name, common) : name;
    }

    private void test(final List<String> args, final List<String> problems)
    {
        final Options known = options("bin/test");
        for (final String arg : args)
        {
            // --quick: the developers' loop; everything else goes to Maven (-Dtest=..., -pl ...).
            if (arg.startsWith("--") && !arg.equals("--quick") && !known.knows(arg))
            {
                problems.add("bin/test has no option " + arg);
            }
        }
    }

    private void plainOptions(final String program, final List<String> args, final List<String> problems)
    {
        final Options known = options(program);
        for (int i = 0; i < args.size(); i++)
        {
            final String arg = args.get(i);
            if (!arg.startsWith("-"))
            {
                problems.add(program + " takes no argument " + arg);
            }
            else if (!known.knows(arg))
            {
                problems.add(program + " has no option " + arg + " (" + program + " -h)");
            }
            else if (known.needsValue(arg))
            {
                i++;
            }
        }
    }

    private Options options(final String program)
    {
        return options.computeIfAbsent(program, p -> parseOptions(help.apply(p)));
    }

    /**
     * The options a help text lists: {@code -x VALUE} (one space, then a word not starting with {@code -},
     * {@code [} or {@code (}) takes a value; {@code -x}, {@code -x,}, {@code [-x]} or {@code -x   description} does
     * not. An option shown both ways takes one.
     */
    static Options parseOptions(final String text)
    {
        final Map<String, Boolean> takesValue = new HashMap<>();
        final Matcher m = OPTION.matcher(text);
        while (m.find())
        {
            final int after = m.end();
            final boolean value = after + 1 < text.length() && text.charAt(after) == ' ' &&
                "-[( \n".indexOf(text.charAt(after + 1)) < 0;
            takesValue.merge(m.group(1), value, Boolean::logicalOr);
        }
        takesValue.putIfAbsent("-h", false);
        return new Options(takesValue);
    }

    // Maven and java.

    private void maven(final List<String> args, final List<String> problems)
    {
        final List<String> modules = new ArrayList<>();
        final List<String> tests = new ArrayList<>();
        for (int i = 0; i < args.size(); i++)
        {
            final String arg = args.get(i);
            if ((arg.equals("-pl") || arg.equals("--projects")) && i + 1 < args.size())
            {
                modules.addAll(List.of(args.get(++i).split(",")));
            }
            else if (arg.startsWith("-Dtest="))
            {
                tests.addAll(List.of(arg.substring("-Dtest=".length()).split(",")));
            }
        }
        for (final String module : modules)
        {
            if (!Files.isRegularFile(root.resolve(module).resolve("pom.xml")))
            {
                problems.add("-pl " + module + ": no such module");
            }
        }
        for (final String test : tests)
        {
            final String name = test.replaceAll("#.*", "");
            final List<String> where = modules.isEmpty() ? modules() : modules;
            if (where.stream().noneMatch(module -> hasSource(module + "/src/test/java", name)))
            {
                problems.add("-Dtest=" + test + ": no test class " + name + " in " + where);
            }
        }
    }

    private void java(final List<String> args, final List<String> problems)
    {
        final Set<String> searched = new LinkedHashSet<>();
        final Set<String> mpjJars = new LinkedHashSet<>();
        int i = 0;
        for (; i < args.size() && args.get(i).startsWith("-"); i++)
        {
            final String arg = args.get(i);
            if ((arg.equals("-cp") || arg.equals("-classpath")) && i + 1 < args.size())
            {
                final String value = args.get(++i);
                searched.addAll(classPath(value, problems));
                mpjJars.addAll(mpjHomeJars(value));
            }
            else if (arg.equals("-jar") && i + 1 < args.size())
            {
                final String jar = args.get(++i);
                mentionedPaths(jar, DEMO_BUILDS, problems);
                if (jar.endsWith("/lib/starter.jar"))
                {
                    starter(args.subList(i + 1, args.size()), problems);
                }
                return;
            }
            else if (arg.startsWith("-javaagent:"))
            {
                mentionedPaths(arg.substring("-javaagent:".length()), DEMO_BUILDS, problems);
            }
        }
        if (i < args.size())
        {
            final String main = args.get(i);
            if (!mpjJars.isEmpty() && mpjJars.stream().anyMatch(jar -> jarHolds(jar, main)))
            {
                return;
            }
            for (final String module : searched)
            {
                if (!DEMO_BUILDS.contains(module))
                {
                    problems.add("-cp names " + module + "/target/classes, which bin/demo does not build");
                }
            }
            mainClass(main, searched, problems);
        }
    }

    /** MPJ Express's starter: {@code java -jar $MPJ_HOME/lib/starter.jar [OPTIONS] MAIN [ARGS]}. */
    private void starter(final List<String> args, final List<String> problems)
    {
        final Set<String> searched = new LinkedHashSet<>();
        int i = 0;
        for (; i < args.size() && args.get(i).startsWith("-"); i++)
        {
            final String arg = args.get(i);
            if (!StarterOption.takesValue(arg) || i + 1 >= args.size())
            {
                continue;
            }
            final String value = args.get(++i);
            if (arg.equals("-cp") || arg.equals("-classpath"))
            {
                searched.addAll(classPath(value, problems));
            }
            else if (arg.equals("-dev"))
            {
                device(value, problems);
            }
        }
        if (i < args.size())
        {
            mainClass(args.get(i), searched, problems);
        }
    }

    // Class paths, classes, paths.

    private void device(final String value, final List<String> problems)
    {
        final List<String> devices = new ArrayList<>(List.of(DeviceName.SHM.text()));
        devices.addAll(DeviceName.starterDevices());
        if (!devices.contains(value) && !placeholder(value))
        {
            problems.add("-dev " + value + ": not one of " + devices);
        }
    }

    /** Checks each entry of a class path; returns the modules whose {@code target/classes} it names. */
    private Set<String> classPath(final String value, final List<String> problems)
    {
        final Set<String> modules = new LinkedHashSet<>();
        for (final String entry : value.split(":"))
        {
            if (entry.isEmpty() || placeholder(entry))
            {
                continue;
            }
            mentionedPaths(entry, Set.of(), problems);
            final String module = classesModule(entry);
            if (module != null && !Files.isRegularFile(root.resolve(module).resolve("pom.xml")))
            {
                problems.add(entry + ": " + module + " is not a module");
            }
            else if (module != null)
            {
                modules.add(module);
            }
        }
        return modules;
    }

    /** The module whose classes {@code entry} is ({@code benchmarks/target/classes}), or null. */
    private String classesModule(final String entry)
    {
        final String suffix = "/target/classes";
        if (!entry.endsWith(suffix) || entry.startsWith("/") || entry.contains("$"))
        {
            return null;
        }
        return entry.substring(0, entry.length() - suffix.length());
    }

    private void mainClass(final String name, final Set<String> modules, final List<String> problems)
    {
        if (placeholder(name))
        {
            return;
        }
        final Path source = modules.stream().map(module -> sourceOf(module + "/src/main/java", name))
            .filter(Files::isRegularFile).findFirst().orElse(null);
        if (source == null)
        {
            problems.add("class " + name + " not found in " + modules);
        }
        else if (!read(source).contains("void main("))
        {
            problems.add("class " + name + " has no main method");
        }
    }

    /**
     * A path of the repository named by a command: it exists, or it is under a module's {@code target/} and that
     * module is built by then (with a jar's name as the module's POM makes it), or the launchers make it.
     */
    private void path(final String token, final Set<String> extraBuilt, final List<String> problems)
    {
        if (!token.contains("/") || token.startsWith("/") || token.startsWith("-") || token.contains("://") ||
            placeholder(token) || !Files.isDirectory(root.resolve(token.substring(0, token.indexOf('/')))))
        {
            return;
        }
        final String path = token.replaceAll("/+$", "");
        if (MADE_UNDER_TARGET.stream().anyMatch(made -> path.equals(made) || path.startsWith(made + "/")))
        {
            mpjHomeFile(path, problems);
            return;
        }
        final int target = path.indexOf("/target");
        if (target < 0)
        {
            if (!Files.exists(root.resolve(path)))
            {
                problems.add("no file " + path);
            }
            return;
        }
        final String module = path.substring(0, target);
        if (!Files.isRegularFile(root.resolve(module).resolve("pom.xml")))
        {
            problems.add(path + ": " + module + " is not a module");
            return;
        }
        if (!DEMO_BUILDS.contains(module) && !extraBuilt.contains(module) && !SCRIPT_BUILDS.containsValue(module))
        {
            problems.add(path + ": nothing builds " + module);
        }
        final String inside = path.substring(Math.min(path.length(), target + "/target/".length()));
        if (inside.equals("runtime.classpath") && !writesRuntimeClassPath(module))
        {
            problems.add(path + ": " + module + "'s build writes no runtime.classpath");
        }
        else if (inside.endsWith(".jar") && !inside.contains("/"))
        {
            final String expected = artifact(module);
            if (!inside.equals(expected))
            {
                problems.add(path + ": " + module + "'s build makes " + expected);
            }
        }
    }

    /** target/mpj-home/lib/JAR is a copy of MPJ Express's jar of that name (mpjrun.MpjHome). */
    private void mpjHomeFile(final String path, final List<String> problems)
    {
        final String lib = "target/mpj-home/lib/";
        if (path.startsWith(lib) && path.endsWith(".jar") &&
            !Files.isRegularFile(Path.of(MpjHome.MPJ_LIB, path.substring(lib.length()))))
        {
            problems.add(path + ": MPJ Express has no " + path.substring(lib.length()) + " in " + MpjHome.MPJ_LIB);
        }
    }

    private static List<String> mpjHomeJars(final String classPath)
    {
        final String lib = "target/mpj-home/lib/";
        return Arrays.stream(classPath.split(":")).filter(entry -> entry.startsWith(lib))
            .map(entry -> MpjHome.MPJ_LIB + "/" + entry.substring(lib.length())).toList();
    }

    private static boolean jarHolds(final String jar, final String className)
    {
        try (JarFile file = new JarFile(jar))
        {
            return file.getEntry(className.replace('.', '/') + ".class") != null;
        }
        catch (final IOException e)
        {
            return false;
        }
    }

    /** {@code artifactId-version.jar} of a module's POM (its own version, else the one its parent gives it). */
    private String artifact(final String module)
    {
        final String pom = read(root.resolve(module).resolve("pom.xml"));
        final Matcher parent = Pattern.compile("(?s)<parent>(.*?)</parent>").matcher(pom);
        final String parentBlock = parent.find() ? parent.group(1) : "";
        final String own = pom.replaceFirst("(?s)<parent>.*?</parent>", "").replaceFirst("(?s)<dependencies>.*", "");
        return first("artifactId", own, "?") + "-" + first("version", own, first("version", parentBlock, "?")) + ".jar";
    }

    /** The text of the first element {@code <tag>} of {@code xml}, or {@code otherwise}. */
    private static String first(final String tag, final String xml, final String otherwise)
    {
        final Matcher m = Pattern.compile("<" + tag + ">([^<]+)</" + tag + ">").matcher(xml);
        return m.find() ? m.group(1).strip() : otherwise;
    }

    private boolean writesRuntimeClassPath(final String module)
    {
        final Path pom = root.resolve(module).resolve("pom.xml");
        return Files.isRegularFile(pom) && read(pom).contains("runtime.classpath");
    }

    private Path sourceOf(final String sourceRoot, final String className)
    {
        return root.resolve(sourceRoot).resolve(className.replace('.', '/') + ".java");
    }

    /** Whether a class of simple or full name {@code name} has a source under {@code sourceRoot}. */
    private boolean hasSource(final String sourceRoot, final String name)
    {
        final Path dir = root.resolve(sourceRoot);
        if (!Files.isDirectory(dir))
        {
            return false;
        }
        if (name.contains("."))
        {
            return Files.isRegularFile(sourceOf(sourceRoot, name));
        }
        try (Stream<Path> files = Files.walk(dir))
        {
            return files.anyMatch(file -> file.getFileName().toString().equals(name + ".java"));
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** Every module of the repository: the directories with a POM below the root's. */
    private List<String> modules()
    {
        try (Stream<Path> files = Files.walk(root, 3))
        {
            return files.filter(file -> file.getFileName().toString().equals("pom.xml"))
                .map(file -> root.relativize(file.getParent()).toString()).filter(module -> !module.isEmpty())
                .filter(module -> !module.contains("target")).sorted().toList();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** A word the reader replaces: see the class comment. */
    static boolean placeholder(final String word)
    {
        return word.startsWith("my/") || word.startsWith("my.") || word.equals("app.jar") ||
            word.equals("machines") || word.contains("...") || word.matches("[A-Z][A-Z_]*");
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
