package bench.device;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import bench.harness.Samples;
import mpjrun.process.ProcessJob;

/**
 * Open MPI's C library measured with our own small osu-style programs ({@code benchmarks/src/main/c}: one per
 * kind of {@link DeviceRank} part, the same loop and the same {@link Samples} line), so that the device
 * benchmark can print C's figures beside ours from the same command.
 *
 * <p>The programs are compiled with {@code mpicc -O2} into a directory of binaries when a source is newer than
 * its binary, and run with {@code mpirun --oversubscribe -np N} ({@code --allow-run-as-root} added for root).
 * Nothing else is set: Open MPI picks its own shared-memory transport on one node (vader), and yields when idle
 * by itself where ranks outnumber cores.
 */
public final class OpenMpiC
{
    /** What to install where {@code mpicc} or {@code mpirun} is missing (Debian and Ubuntu). */
    public static final String INSTALL_HINT = "apt-get install openmpi-bin libopenmpi-dev";
    /** The program of each kind of part, a file {@code <kind>.c} among the sources. */
    public static final List<String> PROGRAMS = List.of("pingpong", "bandwidth", "barrier", "allreduce", "bcast");

    private static final String COMMON_HEADER = "bench_common.h";
    private static final Duration COMPILE_TIMEOUT = Duration.ofMinutes(2);

    private final Path mpicc;
    private final Path mpirun;
    private final Path sourceDirectory;
    private final Path binaryDirectory;

    private OpenMpiC(final Path mpicc, final Path mpirun, final Path sourceDirectory, final Path binaryDirectory)
    {
        this.mpicc = mpicc;
        this.mpirun = mpirun;
        this.sourceDirectory = sourceDirectory;
        this.binaryDirectory = binaryDirectory;
    }

    /**
     * Open MPI as found on {@code searchPath} (a PATH value), with the C sources in {@code sourceDirectory} and
     * binaries to go to {@code binaryDirectory}; empty with the reason in {@code whyNot} when it cannot be used.
     */
    public static Optional<OpenMpiC> find(final String searchPath, final Path sourceDirectory,
        final Path binaryDirectory, final StringBuilder whyNot)
    {
        Objects.requireNonNull(searchPath, "searchPath");
        Objects.requireNonNull(sourceDirectory, "sourceDirectory");
        Objects.requireNonNull(binaryDirectory, "binaryDirectory");
        Objects.requireNonNull(whyNot, "whyNot");
        final Optional<Path> mpicc = onPath(searchPath, "mpicc");
        final Optional<Path> mpirun = onPath(searchPath, "mpirun");
        if (mpicc.isEmpty() || mpirun.isEmpty())
        {
            whyNot.append("not installed (").append(INSTALL_HINT).append(")");
            return Optional.empty();
        }
        if (!Files.isRegularFile(sourceDirectory.resolve(COMMON_HEADER)))
        {
            whyNot.append("its C sources are not in ").append(sourceDirectory)
                .append(" (run the benchmark from the project's build tree)");
            return Optional.empty();
        }
        return Optional.of(new OpenMpiC(mpicc.get(), mpirun.get(), sourceDirectory, binaryDirectory));
    }

    /**
     * Open MPI on this process's PATH, with the sources and binaries of the benchmarks module whose classes are
     * in {@code classesDirectory} ({@code benchmarks/target/classes}: sources in {@code benchmarks/src/main/c},
     * binaries to {@code benchmarks/target/c}).
     */
    public static Optional<OpenMpiC> forModule(final Path classesDirectory, final StringBuilder whyNot)
    {
        final Path target = classesDirectory.toAbsolutePath().getParent();
        final Path module = target.getParent();
        return find(Objects.requireNonNullElse(System.getenv("PATH"), ""), module.resolve("src/main/c"),
            target.resolve("c"), whyNot);
    }

    /** {@code mpirun --version}'s first line, e.g. {@code mpirun (Open MPI) 4.1.4}. */
    public String version() throws IOException, InterruptedException
    {
        return run(List.of(mpirun.toString(), "--version"), COMPILE_TIMEOUT).lines().findFirst().orElse("unknown");
    }

    /**
     * Compiles every program whose binary is missing or older than its source or the common header.
     *
     * @throws IllegalStateException with mpicc's output if a compilation fails.
     */
    public void compile() throws IOException, InterruptedException
    {
        Files.createDirectories(binaryDirectory);
        final Path header = sourceDirectory.resolve(COMMON_HEADER);
        for (final String program : PROGRAMS)
        {
            final Path source = sourceDirectory.resolve(program + ".c");
            final Path binary = binary(program);
            if (Files.exists(binary) && isNewer(binary, source) && isNewer(binary, header))
            {
                continue;
            }
            run(List.of(mpicc.toString(), "-O2", "-Wall", "-o", binary.toString(), source.toString()),
                COMPILE_TIMEOUT);
        }
    }

    /**
     * Runs the program of {@code part} (a {@link DeviceRank} part such as {@code pingpong:8} or {@code barrier})
     * on {@code processes} ranks with the loop's {@code settings} (warm-up ms, repetitions, target ns) and returns
     * what it printed; {@link #compile()} first.
     *
     * @throws IllegalStateException with the output if mpirun fails or runs past {@code timeout}.
     */
    public String run(final String part, final int processes, final List<String> settings, final Duration timeout)
        throws IOException, InterruptedException
    {
        if (processes < 2)
        {
            throw new IllegalArgumentException("processes=" + processes + " must be at least 2");
        }
        final String[] words = part.split(":");
        if (!PROGRAMS.contains(words[0]) || words.length > 2)
        {
            throw new IllegalArgumentException("part " + part + " is not <program>[:<bytes>] for a program of " +
                PROGRAMS);
        }
        final List<String> command = new ArrayList<>(List.of(mpirun.toString()));
        if (isRoot())
        {
            command.add("--allow-run-as-root");
        }
        command.addAll(List.of("--oversubscribe", "-np", Integer.toString(processes), binary(words[0]).toString()));
        command.addAll(settings);
        if (words.length == 2)
        {
            command.add(words[1]);
        }
        return run(command, timeout);
    }

    /** The mpirun options of {@link #run}, as a reader of the table should know them. */
    public String runOptions()
    {
        return (isRoot() ? "--allow-run-as-root " : "") + "--oversubscribe -np N, no --mca setting";
    }

    private Path binary(final String program)
    {
        return binaryDirectory.resolve(program);
    }

    /** Runs {@code command} as a job of one, killing it and what it started past {@code timeout}. */
    private static String run(final List<String> command, final Duration timeout)
        throws IOException, InterruptedException
    {
        try (ProcessJob job = ProcessJob.start(1, rank -> new ProcessBuilder(command),
            ProcessJob.Options.captured().trackingDescendants(), (rank, status) -> { }))
        {
            final ProcessJob.JobExit exit = job.awaitExit(timeout);
            if (exit.exitCode() != 0)
            {
                throw new IllegalStateException(String.join(" ", command) + (exit.timedOut() ? " ran past " +
                    timeout.toSeconds() + " s" : " exited with " + exit.exitCode()) + "; its output:\n" +
                    job.output(0));
            }
            return job.output(0);
        }
    }

    private static Optional<Path> onPath(final String searchPath, final String name)
    {
        for (final String directory : searchPath.split(File.pathSeparator))
        {
            if (directory.isEmpty())
            {
                continue;
            }
            final Path candidate = Path.of(directory, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
            {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static boolean isNewer(final Path binary, final Path source) throws IOException
    {
        return Files.getLastModifiedTime(binary).compareTo(Files.getLastModifiedTime(source)) > 0;
    }

    /** Open MPI refuses to run as root unless told; /proc/self belongs to this process's user. */
    private static boolean isRoot()
    {
        try
        {
            return ((Integer)Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        }
        catch (final IOException | UnsupportedOperationException e)
        {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
