package conformance;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Launches through {@code bin/lib/common.sh} as {@code bin/demo} does: {@code kupl_mpj_home}
 * makes MPJ_HOME, {@code kupl_run_multicore} starts MPJ Express's starter in multicore mode
 * (the ranks are threads of the starter's JVM, which inherits the environment, so the
 * {@code KUPL_SHM_*} variables reach them). Multicore only; niodev and shm wait for the job kit.
 */
public final class CommonShLauncher implements JobLauncher
{
    private final Path root;

    /** @param root the repository (where {@code bin/lib/common.sh} is). */
    public CommonShLauncher(final Path root)
    {
        this.root = root;
    }

    @Override
    public String unavailableReason(final Device device)
    {
        if (!Files.isRegularFile(root.resolve("bin/lib/common.sh")))
        {
            return "no bin/lib/common.sh under " + root;
        }
        return device == Device.MULTICORE ? null : device.label() + " needs the job kit (kupl.launch), not merged yet";
    }

    @Override
    public JobOutput run(final Device device, final int processes, final List<String> classPath, final String mainClass,
        final List<String> appArgs, final Map<String, String> environment, final Duration timeout)
        throws IOException, InterruptedException
    {
        final String reason = unavailableReason(device);
        if (reason != null)
        {
            throw new IllegalArgumentException(reason);
        }
        final Path log = Files.createTempFile("conformance", ".log");
        try
        {
            final String script = "source \"$1/bin/lib/common.sh\" && kupl_find_jdk && kupl_mpj_home && shift && " +
                "kupl_run_multicore \"$@\"";
            final List<String> command = new ArrayList<>(List.of("bash", "-c", script, "conformance", root.toString(),
                Integer.toString(processes), String.join(File.pathSeparator, classPath), mainClass));
            command.addAll(appArgs);
            final ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
            final Process process = builder.start();
            final boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!exited)
            {
                // The ranks' JVM is a grandchild: end the whole tree, so that no rank outlives the job.
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
            }
            return new JobOutput(Files.readString(log), !exited, exited ? process.exitValue() : -1);
        }
        finally
        {
            Files.deleteIfExists(log);
        }
    }
}
