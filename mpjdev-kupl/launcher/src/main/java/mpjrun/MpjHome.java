package mpjrun;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The {@code MPJ_HOME} directory MPJ Express's starter and daemon need, made from Debian's
 * {@code libmpj-java}: {@code lib/} holds copies of every jar of {@value #MPJ_LIB} plus log4j 1.2
 * and commons-cli/io/codec (Debian's layout lacks them, and the starter's manifest looks for
 * them beside itself), {@code conf/} a copy of {@value #MPJ_CONF}.
 *
 * <p>The one recipe of this project: the launchers ({@code bin/mpjrun}, the shm launcher), the job
 * kit, the benchmarks and the tests all get their MPJ_HOME here; {@code bin/} passes the directory
 * ({@value #DIRECTORY_PROPERTY}), and {@code java -cp <kupl-launcher> mpjrun.MpjHome [DIR]} makes one
 * from the command line. It is made aside and renamed into place, so that concurrent jobs never
 * see half of it.
 */
public final class MpjHome
{
    /** Where Debian's libmpj-java installs MPJ Express 0.44's jars. */
    public static final String MPJ_LIB = "/usr/share/mpj/lib";
    /** Where Debian's libmpj-java installs MPJ Express's configuration. */
    public static final String MPJ_CONF = "/etc/mpj";
    /** Overrides {@link #defaultDirectory()}. */
    public static final String DIRECTORY_PROPERTY = "mpi.rma.kupl.home";
    /** The environment variable MPJ Express reads its home from. */
    public static final String VARIABLE = "MPJ_HOME";
    /** The configuration file the starter and the daemon read their ports from. */
    public static final String CONF_FILE = "conf/mpjexpress.conf";

    /** log4j 1.2, which MPJ Express's classes load in every rank. */
    private static final String LOG4J_JAR = "log4j-1.2.jar";
    /** What MPJ Express's starter loads from {@code $MPJ_HOME/lib} besides its own jars. */
    private static final List<String> EXTRA_JARS = List.of("/usr/share/java/" + LOG4J_JAR,
        "/usr/share/java/commons-cli.jar", "/usr/share/java/commons-io.jar", "/usr/share/java/commons-codec.jar");
    private static final String REINSTALL_EXTRAS = "As root: 'apt-get install -y --reinstall liblog4j1.2-java " +
        "libcommons-cli-java libcommons-io-java libcommons-codec-java'";

    private MpjHome()
    {
    }

    /**
     * {@code <repo>/target/mpj-home}, the directory {@code bin/lib/common.sh} uses, where
     * {@code <repo>} is the nearest directory at or above the working directory that holds
     * {@code bin/lib/common.sh} (a module's tests run in the module's directory); else
     * {@code target/mpj-home} under the working directory. System property
     * {@value #DIRECTORY_PROPERTY} overrides both.
     */
    public static Path defaultDirectory()
    {
        final String configured = System.getProperty(DIRECTORY_PROPERTY);
        if (configured != null && !configured.isBlank())
        {
            return Path.of(configured).toAbsolutePath();
        }
        final Path workingDirectory = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = workingDirectory; dir != null; dir = dir.getParent())
        {
            if (Files.isRegularFile(dir.resolve("bin/lib/common.sh")))
            {
                return dir.resolve("target/mpj-home");
            }
        }
        return workingDirectory.resolve("target/mpj-home");
    }

    /**
     * Makes (if needed) the MPJ_HOME of {@code DIR} (default {@link #defaultDirectory()}) and prints its
     * absolute path: for scripts, and for starting an MPJ Express daemon by hand.
     */
    public static void main(final String[] args) throws IOException
    {
        if (args.length > 1 || args.length == 1 && args[0].startsWith("-"))
        {
            System.err.println("usage: java -cp <kupl-launcher> mpjrun.MpjHome [DIR]   (makes an MPJ_HOME in DIR, " +
                "default " + defaultDirectory() + ", and prints its path)");
            System.exit(2);
        }
        try
        {
            System.out.println(prepare(args.length == 1 ? Path.of(args[0]) : defaultDirectory()));
        }
        catch (final IllegalStateException e)
        {
            System.err.println("MpjHome: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Whether {@code dir} already holds a usable MPJ_HOME. */
    public static boolean isComplete(final Path dir)
    {
        return Files.exists(dir.resolve("lib/starter.jar")) && Files.exists(dir.resolve("lib/mpj.jar")) &&
            Files.exists(dir.resolve("lib/" + LOG4J_JAR)) && Files.isRegularFile(dir.resolve(CONF_FILE));
    }

    /**
     * The MPJ_HOME a launcher uses: {@code $MPJ_HOME} if it is complete (MPJ Express's starter ran
     * with it, or {@code bin/} exported it), else {@link #defaultDirectory()}, made if needed.
     *
     * @throws IllegalStateException if MPJ Express or a jar it needs is not installed, saying what to install.
     */
    public static Path forJob() throws IOException
    {
        final String exported = System.getenv(VARIABLE);
        if (exported != null && !exported.isBlank() && isComplete(Path.of(exported)))
        {
            return Path.of(exported).toAbsolutePath();
        }
        return prepare(defaultDirectory());
    }

    /**
     * Why an MPJ_HOME cannot be made here (MPJ Express or a jar its starter needs is not installed,
     * with the command that installs it), or null if it can.
     */
    public static String unavailableReason()
    {
        final Path mpjJar = Path.of(MPJ_LIB, "mpj.jar");
        if (!Files.isRegularFile(mpjJar) || !Files.isRegularFile(Path.of(MPJ_LIB, "starter.jar")))
        {
            return "MPJ Express is not installed (" + mpjJar + " is missing): as root, 'apt-get install -y libmpj-java'";
        }
        for (final String extra : EXTRA_JARS)
        {
            if (!Files.isRegularFile(Path.of(extra)))
            {
                return extra + " is missing: MPJ Express's starter needs it. " + REINSTALL_EXTRAS;
            }
        }
        return null;
    }

    /** What a rank needs of MPJ Express on its class path when no starter gives it: mpj.jar and log4j 1.2. */
    static List<String> rankJars(final Path home)
    {
        return List.of(mpjJar(home).toString(), home.resolve("lib/" + LOG4J_JAR).toString());
    }

    /** MPJ Express's own classes in {@code home}. */
    static Path mpjJar(final Path home)
    {
        return home.resolve("lib/mpj.jar");
    }

    /**
     * {@code classPath} without MPJ Express's jars (those under {@value #MPJ_LIB}, in an MPJ_HOME's
     * {@code lib/}, or installed into Maven's repository under group {@code mpjexpress}): the starter adds
     * its own for each rank, and a second copy would give a multicore rank's class loader {@code mpi.*} twice.
     */
    static List<String> withoutMpjExpress(final List<String> classPath)
    {
        return classPath.stream().filter(entry -> !entry.isBlank())
            .filter(entry -> !entry.startsWith(MPJ_LIB + "/") &&
                !entry.replace(java.io.File.separatorChar, '/').contains("/mpjexpress/"))
            .toList();
    }

    /**
     * Makes {@code dir} a complete MPJ_HOME unless it already is one.
     *
     * @return {@code dir}, absolute.
     * @throws IllegalStateException naming the missing file and the package to install.
     */
    public static Path prepare(final Path dir) throws IOException
    {
        final Path home = dir.toAbsolutePath();
        if (isComplete(home))
        {
            return home;
        }
        Files.createDirectories(home.getParent());
        // Made aside and renamed into place, so that a concurrent job never sees half of it.
        final Path staging = Files.createTempDirectory(home.getParent(), home.getFileName() + ".");
        try
        {
            // A temporary directory is 0700: others sharing the checkout could not run bin/mpjrun from it.
            Files.setPosixFilePermissions(staging, PosixFilePermissions.fromString("rwxr-xr-x"));
            fill(staging);
            try
            {
                Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
            }
            catch (final FileAlreadyExistsException | DirectoryNotEmptyException e)
            {
                // Another job made it meanwhile, or an incomplete one is in the way.
                if (!isComplete(home))
                {
                    deleteTree(home);
                    Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
                }
            }
        }
        finally
        {
            deleteTree(staging);
        }
        return home;
    }

    /**
     * Makes {@code target} (which must not exist) a private copy of the complete MPJ_HOME
     * {@code home} whose {@value #CONF_FILE} has the given keys set: a niodev job's own ports.
     */
    static Path copyWithSettings(final Path home, final Path target, final Map<String, String> settings)
        throws IOException
    {
        Files.createDirectories(target.resolve("lib"));
        Files.createDirectories(target.resolve("conf"));
        copyFiles(home.resolve("lib"), target.resolve("lib"));
        copyFiles(home.resolve("conf"), target.resolve("conf"));
        final List<String> lines = new ArrayList<>();
        final List<String> unset = new ArrayList<>(settings.keySet());
        for (final String line : Files.readAllLines(home.resolve(CONF_FILE)))
        {
            final String key = line.contains("=") ? line.substring(0, line.indexOf('=')).trim() : null;
            if (key != null && settings.containsKey(key))
            {
                lines.add(key + "=" + settings.get(key));
                unset.remove(key);
            }
            else
            {
                lines.add(line);
            }
        }
        for (final String key : unset)
        {
            lines.add(key + "=" + settings.get(key));
        }
        Files.write(target.resolve(CONF_FILE), lines);
        return target;
    }

    /** Deletes {@code path} and everything under it, if it exists. */
    static void deleteTree(final Path path)
    {
        if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS))
        {
            return;
        }
        try (Stream<Path> walk = Files.walk(path))
        {
            for (final Path entry : walk.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(entry);
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("could not delete " + path, e);
        }
    }

    private static void fill(final Path staging) throws IOException
    {
        final String unavailable = unavailableReason();
        if (unavailable != null)
        {
            throw new IllegalStateException(unavailable);
        }
        final Path lib = Files.createDirectory(staging.resolve("lib"));
        final Path mpjLib = Path.of(MPJ_LIB);
        // Copies, not links: the JVM resolves a linked starter.jar to /usr/share/mpj/lib and looks for
        // the log4j-1.2.jar of its manifest's Class-Path there.
        copyFiles(mpjLib, lib);
        for (final String extra : EXTRA_JARS)
        {
            final Path jar = Path.of(extra);
            Files.copy(jar, lib.resolve(jar.getFileName()));
        }
        copyFiles(Path.of(MPJ_CONF), Files.createDirectory(staging.resolve("conf")));
    }

    /** Copies the regular files of {@code from} (following links, as {@code cp -L}) into {@code to}. */
    private static void copyFiles(final Path from, final Path to) throws IOException
    {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(from))
        {
            for (final Path entry : entries)
            {
                if (Files.isRegularFile(entry))
                {
                    Files.copy(entry, to.resolve(entry.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
