package mpjrun.agent;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * Completes the class path of MPJ Express's starter where its {@code MPJ_HOME} lacks the libraries it loads:
 * Debian's {@code /usr/bin/mpjrun} sets {@code MPJ_HOME=/usr/share/mpj}, whose {@code lib/} has no log4j 1.2,
 * commons-cli, commons-io or commons-codec (the starter's manifest names {@code log4j-1.2.jar} beside it), so
 * {@code runtime.starter.MPJRun} fails with {@code NoClassDefFoundError: org/apache/log4j/Layout} before the
 * agent's advice can run. The agent's {@code premain} runs before the starter's {@code main} is loaded: it appends
 * each missing library, found by its file name in {@value #JAVA_DIR}, to the system class loader's search
 * ({@link Instrumentation#appendToSystemClassLoaderSearch}).
 *
 * <p>Only in the starter's JVM (its main class or jar, {@code sun.java.command}), and only a library whose class is
 * not found already: a complete {@code MPJ_HOME} (this project's {@code target/mpj-home}) is left alone. Found by
 * resource, so nothing is loaded or initialised.
 */
final class StarterClassPath
{
    /** Where Debian's packages put the jars. */
    static final String JAVA_DIR = "/usr/share/java";
    /** MPJ Express's starter, as {@code java -jar starter.jar} or by its class. */
    static final String STARTER_CLASS = "runtime.starter.MPJRun";

    /**
     * A library the starter loads: its jar in {@value #JAVA_DIR}, a class file that shows it is on the class path
     * already, and the Debian package that installs it.
     */
    record Library(String jar, String probe, String aptPackage)
    {
    }

    /** What MPJ Express 0.44's starter needs beside its own jars, in the order they are appended. */
    static final List<Library> LIBRARIES = List.of(
        new Library("log4j-1.2.jar", "org/apache/log4j/Layout.class", "liblog4j1.2-java"),
        new Library("commons-cli.jar", "org/apache/commons/cli/Options.class", "libcommons-cli-java"),
        new Library("commons-io.jar", "org/apache/commons/io/FileUtils.class", "libcommons-io-java"),
        new Library("commons-codec.jar", "org/apache/commons/codec/binary/Base64.class", "libcommons-codec-java"));

    private StarterClassPath()
    {
    }

    /**
     * In MPJ Express's starter, appends the libraries its class path lacks.
     *
     * @return the jars appended (none outside the starter, or with a complete MPJ_HOME).
     * @throws IllegalStateException if a library is missing from the class path and from {@value #JAVA_DIR}, naming
     *                               the jar and the command that installs it; nothing is appended then.
     */
    static List<Path> complete(final Instrumentation instrumentation)
    {
        if (!isStarter(System.getProperty("sun.java.command")))
        {
            return List.of();
        }
        final List<Path> jars = missing(ClassLoader.getSystemClassLoader(), Path.of(JAVA_DIR));
        for (final Path jar : jars)
        {
            try
            {
                // The loader keeps the JarFile open for the JVM's life, as it does its own class path's.
                instrumentation.appendToSystemClassLoaderSearch(new JarFile(jar.toFile()));
            }
            catch (final IOException e)
            {
                throw new IllegalStateException("cannot open " + jar + " for MPJ Express's starter: " + e.getMessage() +
                    "; as root: 'apt-get install -y --reinstall " + packageOf(jar) + "'", e);
            }
        }
        return jars;
    }

    /** Whether {@code command} ({@code sun.java.command}: the main class or jar, then its arguments) is the starter. */
    static boolean isStarter(final String command)
    {
        if (command == null || command.isBlank())
        {
            return false;
        }
        final String main = command.strip().split("\\s+", 2)[0];
        if (main.equals(STARTER_CLASS))
        {
            return true;
        }
        // java -jar $MPJ_HOME/lib/starter.jar (Debian also ships it as starter-0.44.jar).
        final Path file = Path.of(main).getFileName();
        final String name = file == null ? "" : file.toString();
        return name.endsWith(".jar") && (name.equals("starter.jar") || name.startsWith("starter-"));
    }

    /**
     * The jars of {@link #LIBRARIES} in {@code directory} whose probe class {@code loader} does not find.
     *
     * @throws IllegalStateException if one of those is not in {@code directory}, naming every such jar and the
     *                               {@code apt-get} command that installs them.
     */
    static List<Path> missing(final ClassLoader loader, final Path directory)
    {
        final List<Path> jars = new ArrayList<>();
        final List<Library> absent = new ArrayList<>();
        for (final Library library : LIBRARIES)
        {
            if (loader.getResource(library.probe()) != null)
            {
                continue;
            }
            final Path jar = directory.resolve(library.jar());
            if (Files.isRegularFile(jar))
            {
                jars.add(jar);
            }
            else
            {
                absent.add(library);
            }
        }
        if (!absent.isEmpty())
        {
            throw new IllegalStateException("MPJ Express's starter needs " + String.join(", ",
                absent.stream().map(Library::jar).toList()) + ", which neither its MPJ_HOME/lib nor " + directory +
                " has: as root, 'apt-get install -y " + String.join(" ",
                absent.stream().map(Library::aptPackage).toList()) + "' (or use bin/mpjrun, which makes a complete " +
                "MPJ_HOME)");
        }
        return jars;
    }

    private static String packageOf(final Path jar)
    {
        final String name = jar.getFileName().toString();
        return LIBRARIES.stream().filter(library -> library.jar().equals(name)).map(Library::aptPackage).findFirst()
            .orElse(name);
    }
}
