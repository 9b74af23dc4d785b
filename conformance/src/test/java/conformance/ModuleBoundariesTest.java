package conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/**
 * Names across the project's modules, read from the main sources of every module: no two main classes of the
 * library and its suite (the api, the engine, the device, the launcher, the agent, conformance) share a simple
 * name, so that a name in a report, a stack trace or a document says which class it is. Each failure lists the
 * files at fault. (Which module may use which, {@code mpi.rma.internal} included, is the architecture module's
 * ArchUnit rules.)
 */
public class ModuleBoundariesTest
{
    private static final Path ROOT = Citations.root();
    /** The modules of the library and its suite, whose class names must not collide. */
    private static final List<String> LIBRARY = List.of("api", "mpjdev-kupl", "conformance");

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
}
