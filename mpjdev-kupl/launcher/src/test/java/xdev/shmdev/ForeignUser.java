package xdev.shmdev;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import kupl.bootstrap.SocketOob;

/**
 * A throw-away Unix user for the tests ({@code useradd -M -r}, removed by {@link #close()}) who runs
 * {@link Intruder} with a copy of the classes it needs, readable by everyone. Creating one needs
 * root and {@code useradd}, {@code userdel} and {@code runuser}; without them the test is skipped,
 * saying which is missing.
 */
final class ForeignUser implements AutoCloseable
{
    private final String name;
    private final Path classes;

    private ForeignUser(final String name, final Path classes)
    {
        this.name = name;
        this.classes = classes;
    }

    static ForeignUser create() throws IOException, InterruptedException
    {
        assumeTrue("root".equals(System.getProperty("user.name")),
            "attacks from another user need root to create that user; running as " + System.getProperty("user.name"));
        for (final String tool : List.of("/usr/sbin/useradd", "/usr/sbin/userdel", "/usr/sbin/runuser"))
        {
            assumeTrue(Files.isExecutable(Path.of(tool)), "attacks from another user need " + tool);
        }
        final String name = "kuplatk" + ProcessHandle.current().pid();
        final String added = run("/usr/sbin/useradd", "-M", "-r", "-s", "/usr/sbin/nologin", name);
        assumeTrue(added.isEmpty(), "useradd " + name + " failed: " + added);
        final Path classes = Files.createTempDirectory("kupl-intruder-");
        try
        {
            copyReadable(codeSource(Intruder.class).resolve("xdev/shmdev"), classes.resolve("xdev/shmdev"),
                "Intruder");
            final Path engine = codeSource(SocketOob.class);
            if (Files.isDirectory(engine))
            {
                copyReadable(engine, classes, "");
            }
            else
            {
                Files.copy(engine, classes.resolve("engine.jar"));
            }
            makeReadable(classes);
        }
        catch (final IOException | RuntimeException e)
        {
            new ForeignUser(name, classes).close();
            throw e;
        }
        return new ForeignUser(name, classes);
    }

    String name()
    {
        return name;
    }

    /** Starts {@link Intruder} as this user, its output and errors merged. */
    Process intrude(final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of("/usr/sbin/runuser", "-u", name, "--",
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:-UsePerfData",
            "-XX:TieredStopAtLevel=1", "-cp", classes + ":" + classes.resolve("engine.jar"), Intruder.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).directory(classes.toFile()).redirectErrorStream(true).start();
    }

    /** Removes the user and the copied classes. */
    @Override
    public void close() throws IOException, InterruptedException
    {
        try
        {
            final String removed = run("/usr/sbin/userdel", name);
            if (!removed.isEmpty())
            {
                throw new IllegalStateException("userdel " + name + " failed: " + removed);
            }
        }
        finally
        {
            try (Stream<Path> paths = Files.walk(classes))
            {
                for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    Files.delete(path);
                }
            }
        }
    }

    /** Runs a command; returns its output if it failed, else "". */
    private static String run(final String... command) throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            return "did not end within 30 s";
        }
        return process.exitValue() == 0 ? "" : "status " + process.exitValue() + ": " + output;
    }

    private static Path codeSource(final Class<?> type)
    {
        try
        {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (final URISyntaxException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /** Copies the class files under {@code from} whose names start with {@code prefix}. */
    private static void copyReadable(final Path from, final Path to, final String prefix) throws IOException
    {
        try (Stream<Path> paths = Files.walk(from))
        {
            for (final Path path : paths.filter(p -> p.toString().endsWith(".class") &&
                p.getFileName().toString().startsWith(prefix)).toList())
            {
                final Path target = to.resolve(from.relativize(path).toString());
                Files.createDirectories(target.getParent());
                Files.copy(path, target);
            }
        }
    }

    private static void makeReadable(final Path root) throws IOException
    {
        try (Stream<Path> paths = Files.walk(root))
        {
            for (final Path path : paths.toList())
            {
                Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(
                    Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
    }
}
