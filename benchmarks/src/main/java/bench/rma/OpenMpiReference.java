package bench.rma;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Open MPI's {@code MPI_Win_allocate_shared} + {@code MPI_Win_free}, measured in the same run as
 * {@code mpi.rma}'s rows: the C program {@code win_alloc_shared.c} (a resource of this jar) is
 * compiled with {@code mpicc} into a temporary directory and run by {@code mpirun} on 2
 * processes. Skipped, with the reason on standard error, where Open MPI is not installed
 * ({@code apt-get install openmpi-bin libopenmpi-dev}).
 */
final class OpenMpiReference
{
    static final int PROCESSES = 2;
    private static final String SOURCE = "win_alloc_shared.c";
    private static final long TIMEOUT_S = 120;

    private OpenMpiReference()
    {
    }

    /**
     * Runs the program once per size; returns its sample lines ("ompi-alloc-free-BYTES"), or
     * empty if Open MPI is missing or the program failed (said on standard error).
     */
    static Optional<String> measure(final long[] sizesBytes, final int repetitions, final long repetitionTargetNs)
    {
        final Optional<Path> mpicc = onPath("mpicc");
        final Optional<Path> mpirun = onPath("mpirun");
        if (mpicc.isEmpty() || mpirun.isEmpty())
        {
            System.err.println("bench-rma: no mpicc/mpirun on PATH, so no Open MPI figure (install it with " +
                "'apt-get install -y openmpi-bin libopenmpi-dev')");
            return Optional.empty();
        }
        Path dir = null;
        try
        {
            dir = Files.createTempDirectory("bench-ompi");
            final Path source = dir.resolve(SOURCE);
            try (InputStream in = OpenMpiReference.class.getResourceAsStream(SOURCE))
            {
                Files.copy(in, source);
            }
            final Path program = dir.resolve("win_alloc_shared");
            final StringBuilder output = new StringBuilder();
            if (!run(List.of(mpicc.get().toString(), "-O2", "-o", program.toString(), source.toString()), output))
            {
                System.err.println("bench-rma: mpicc failed, so no Open MPI figure:\n" + output);
                return Optional.empty();
            }
            for (final long bytes : sizesBytes)
            {
                final List<String> command = new ArrayList<>(List.of(mpirun.get().toString()));
                if ("root".equals(System.getProperty("user.name")))
                {
                    command.add("--allow-run-as-root");
                }
                command.addAll(List.of("--oversubscribe", "-np", Integer.toString(PROCESSES), program.toString(),
                    Long.toString(bytes), Integer.toString(repetitions), Long.toString(repetitionTargetNs)));
                if (!run(command, output))
                {
                    System.err.println("bench-rma: the Open MPI program failed, so no Open MPI figure:\n" + output);
                    return Optional.empty();
                }
            }
            return Optional.of(output.toString());
        }
        catch (final IOException e)
        {
            System.err.println("bench-rma: no Open MPI figure: " + e);
            return Optional.empty();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        finally
        {
            deleteQuietly(dir);
        }
    }

    /** Runs {@code command}, appending its output; true if it exited 0 within the time limit. */
    private static boolean run(final List<String> command, final StringBuilder output)
        throws IOException, InterruptedException
    {
        // Into a file, not a pipe: a program that hangs cannot block the reader past the time limit.
        final Path log = Files.createTempFile("bench-ompi", ".log");
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
            final boolean exited = process.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
            if (!exited)
            {
                process.destroyForcibly().waitFor();
            }
            output.append(Files.readString(log, StandardCharsets.UTF_8));
            if (!exited)
            {
                output.append(String.join(" ", command)).append(": no exit within ").append(TIMEOUT_S).append(" s\n");
            }
            return exited && process.exitValue() == 0;
        }
        finally
        {
            Files.deleteIfExists(log);
        }
    }

    private static Optional<Path> onPath(final String name)
    {
        final String path = System.getenv("PATH");
        if (path == null)
        {
            return Optional.empty();
        }
        return Stream.of(path.split(":")).map(dir -> Path.of(dir, name)).filter(Files::isExecutable).findFirst();
    }

    private static void deleteQuietly(final Path dir)
    {
        if (dir == null)
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException e)
        {
            System.err.println("bench-rma: could not delete " + dir + ": " + e);
        }
    }
}
