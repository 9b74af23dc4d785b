package bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program under MPJ Express 0.44 in multicore mode (ranks are threads of one JVM).
 *
 * <p>Debian's {@code libmpj-java} cannot run as installed: its starter looks for log4j and
 * friends in {@code $MPJ_HOME/lib}. {@link #prepareHome} builds a working {@code MPJ_HOME}
 * from the installed files: {@code lib/} holds the jars of {@value #MPJ_LIB} plus
 * {@link #EXTRA_JARS} from {@value #JAVA_LIB}, {@code conf/} the files of {@value #MPJ_CONF}.
 * The starter and the JVM it spawns run the {@code java} of this JVM (put first on
 * {@code PATH}), in {@code MPJ_HOME} as working directory, because MPJ Express puts the
 * working directory first on every rank's class path.
 */
final class MpjMulticore
{
    static final String MPJ_LIB = "/usr/share/mpj/lib";
    static final String MPJ_CONF = "/etc/mpj";
    static final String JAVA_LIB = "/usr/share/java";
    static final List<String> EXTRA_JARS = List.of("log4j-1.2.jar", "commons-cli.jar", "commons-io.jar",
        "commons-codec.jar");

    private MpjMulticore()
    {
    }

    /** Why MPJ Express cannot run here, or null if its files are installed. */
    static String unavailableReason()
    {
        if (!Files.isRegularFile(Path.of(MPJ_LIB, "starter.jar")))
        {
            return "MPJ Express is not installed (no " + MPJ_LIB + "/starter.jar; apt-get install libmpj-java)";
        }
        for (final String jar : EXTRA_JARS)
        {
            if (!Files.isRegularFile(Path.of(JAVA_LIB, jar)))
            {
                return "MPJ Express needs " + JAVA_LIB + "/" + jar;
            }
        }
        return null;
    }

    /** Fills {@code home} as an {@code MPJ_HOME}, unless it already holds the starter. */
    static Path prepareHome(final Path home) throws IOException
    {
        if (Files.isRegularFile(home.resolve("lib/starter.jar")) && Files.isDirectory(home.resolve("conf")))
        {
            return home;
        }
        final Path lib = Files.createDirectories(home.resolve("lib"));
        final Path conf = Files.createDirectories(home.resolve("conf"));
        final List<Path> jars = new ArrayList<>();
        try (DirectoryStream<Path> installed = Files.newDirectoryStream(Path.of(MPJ_LIB), "*.jar"))
        {
            installed.forEach(jars::add);
        }
        EXTRA_JARS.forEach(jar -> jars.add(Path.of(JAVA_LIB, jar)));
        for (final Path jar : jars)
        {
            // Files.copy follows symbolic links: Debian installs most of these jars as links.
            Files.copy(jar, lib.resolve(jar.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(Path.of(MPJ_CONF)))
        {
            for (final Path file : files)
            {
                Files.copy(file, conf.resolve(file.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return home;
    }

    /**
     * Runs {@code mainClass} from {@code classPath} on {@code ranks} ranks and returns everything
     * it printed.
     *
     * @param jvmArgs options of the JVM that holds the ranks.
     * @throws IllegalStateException with the output if the job does not finish within {@code timeout}
     *         (it is killed then).
     */
    static String run(final Path home, final int ranks, final Path classPath, final String mainClass,
        final List<String> jvmArgs, final List<String> appArgs, final Duration timeout)
        throws IOException, InterruptedException
    {
        final Path javaBin = Path.of(System.getProperty("java.home"), "bin");
        final List<String> command = new ArrayList<>(List.of(javaBin.resolve("java").toString(),
            "-jar", home.resolve("lib/starter.jar").toString(),
            "-np", Integer.toString(ranks), "-cp", classPath.toString()));
        command.addAll(jvmArgs);
        command.add(mainClass);
        command.addAll(appArgs);
        final ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true);
        builder.environment().put("MPJ_HOME", home.toString());
        builder.environment().merge("PATH", javaBin.toString(), (path, java) -> java + ":" + path);
        final Process starter = builder.start();
        final StringBuffer output = new StringBuffer();
        final Thread pump = Thread.ofPlatform().daemon().name("mpj-output").start(() -> collect(starter, output));
        try
        {
            if (!starter.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS))
            {
                throw new IllegalStateException("MPJ Express job of " + ranks + " ranks did not finish within " +
                    timeout + "; output:\n" + output);
            }
            pump.join(TimeUnit.SECONDS.toMillis(10));
            return output.toString();
        }
        finally
        {
            // The starter spawns the JVM holding the ranks: end it too, never leave it running.
            starter.descendants().forEach(ProcessHandle::destroyForcibly);
            starter.destroyForcibly();
        }
    }

    private static void collect(final Process process, final StringBuffer output)
    {
        try (InputStream in = process.getInputStream())
        {
            output.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
