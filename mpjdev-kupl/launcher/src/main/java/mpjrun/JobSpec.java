package mpjrun;

import java.util.List;
import java.util.Objects;

/**
 * What one MPJ Express job runs, whatever device carries it: {@code processes} ranks of
 * {@code mainClass} with {@code appArgs}, the program's own {@code classPath} (added to the
 * project's and MPJ Express's jars), extra options for the ranks' JVMs, and whether each line
 * a rank prints is prefixed with its rank.
 */
public record JobSpec(int processes, List<String> classPath, List<String> jvmArgs, String mainClass,
    List<String> appArgs, boolean prefixOutput)
{
    public JobSpec
    {
        if (processes < 1)
        {
            throw new IllegalArgumentException("processes=" + processes + " must be at least 1");
        }
        classPath = List.copyOf(Objects.requireNonNull(classPath, "classPath"));
        jvmArgs = List.copyOf(Objects.requireNonNull(jvmArgs, "jvmArgs"));
        Objects.requireNonNull(mainClass, "mainClass");
        if (mainClass.isBlank())
        {
            throw new IllegalArgumentException("mainClass is empty: name the class whose main each rank runs");
        }
        appArgs = List.copyOf(Objects.requireNonNull(appArgs, "appArgs"));
    }
}
