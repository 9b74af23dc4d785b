package mpjrun;

import java.io.File;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What every JVM a launcher of this project starts gets: this JVM's {@code java}, native access
 * for the engine, {@code MPJ_HOME}, and {@code java}'s directory first on {@code PATH} (MPJ
 * Express's starter and daemon start ranks as plain {@code java}). Shared by {@link MpjRun} and
 * the job kit ({@link MpjJobs}), so that neither calls into the other for it.
 */
final class LaunchEnvironment
{
    /** Every rank may call into libc through the FFM API (the engine does). */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    private LaunchEnvironment()
    {
    }

    /** The {@code java} launcher of this JVM (a JDK 22+ since this project runs on it). */
    static Path java()
    {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** {@code jobEnvironment} plus MPJ_HOME, and {@code java}'s directory first on PATH. */
    static Map<String, String> environment(final Path home, final Path java, final Map<String, String> jobEnvironment)
    {
        final String path = System.getenv("PATH");
        final Map<String, String> environment = new HashMap<>(jobEnvironment);
        environment.put(MpjHome.VARIABLE, home.toString());
        environment.put("PATH", java.getParent() + (path == null || path.isEmpty() ? "" : File.pathSeparator + path));
        return environment;
    }
}
