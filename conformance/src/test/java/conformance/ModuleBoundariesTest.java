package conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * Boundaries between the project's modules, read from the main sources of every module: only the api uses its
 * unexported implementation ({@code mpi.rma.internal}; what the others need is in the exported
 * {@code mpi.rma.spi.common}), and no two main classes of the library and its suite (the api, the engine, the
 * device, the agent, conformance) share a simple name, so that a name in a report, a stack trace or a document
 * says which class it is. Each failure lists the files at fault.
 */
public class ModuleBoundariesTest
{
    private static final Path ROOT = Citations.root();
    /** The modules of the library and its suite, whose class names must not collide. */
    private static final List<String> LIBRARY = List.of("api", "mpjdev-kupl", "conformance");

    @Test
    void shouldKeepTheApisImplementationToTheApi()
    {
        final List<String> leaks = mainSources().stream()
            .filter(file -> !ROOT.relativize(file).startsWith("api"))
            .filter(file -> lines(file).stream().anyMatch(line -> line.startsWith("import mpi.rma.internal.") ||
                line.startsWith("import static mpi.rma.internal.")))
            .map(file -> ROOT.relativize(file).toString())
            .toList();
        assertEquals(List.of(), leaks, "these files import mpi.rma.internal, which module-info does not export: " +
            "use what mpi.rma.spi.common offers, or move what they need there");
    }

    @Test
    void shouldGiveEveryMainClassANameOfItsOwn()
    {
        final Map<String, List<String>> byName = mainSources().stream()
            .filter(file -> LIBRARY.stream().anyMatch(ROOT.relativize(file)::startsWith))
            .filter(file -> !file.getFileName().toString().equals("package-info.java") &&
                !file.getFileName().toString().equals("module-info.java"))
            .collect(Collectors.groupingBy(file -> file.getFileName().toString(),
                Collectors.mapping(file -> ROOT.relativize(file).toString(), Collectors.toList())));
        final List<String> clashes = byName.values().stream().filter(paths -> paths.size() > 1)
            .map(paths -> String.join(" and ", paths.stream().sorted().toList())).sorted().toList();
        assertEquals(List.of(), clashes, "these main classes share a name: rename one of each");
    }

    /** Every Java file under a module's src/main/java, build outputs left out. */
    private static List<Path> mainSources()
    {
        return Citations.textFiles(ROOT).stream()
            .filter(file -> file.toString().endsWith(".java"))
            .filter(file -> ROOT.relativize(file).toString().contains("src/main/java/"))
            .toList();
    }

    private static List<String> lines(final Path file)
    {
        try
        {
            return Files.readAllLines(file);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
