package mpi.rma.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The api's layering, read from its sources: the machinery behind {@code Win} does not reach up into the facade,
 * the vocabulary is a leaf, and the facade reaches its parts through their interfaces, not by downcasts. Each
 * failure lists the files and lines at fault.
 */
public class LayeringTest
{
    /** The api's main sources, in the repository's root: {@code kupl.root} as the build sets it, else above here. */
    private static final Path MAIN = Path.of(System.getProperty("kupl.root", System.getProperty("user.dir") + "/.."),
        "api", "src", "main", "java", "mpi", "rma").toAbsolutePath().normalize();
    /** A use of the facade: an import of Win or WinRequest, or a name qualified by the package. */
    private static final Pattern FACADE =
        Pattern.compile("^import mpi\\.rma\\.(Win|WinRequest);|\\bmpi\\.rma\\.Win(Request)?\\b");
    /** A cast to a class type, as in {@code ((MessageTargets)targets)}. */
    private static final Pattern CAST = Pattern.compile("\\(\\s*(?:[a-z]\\w*\\.)*[A-Z]\\w*(?:<[^>]*>)?\\s*\\)\\s*[a-z(]");

    @Test
    void shouldKeepTheFacadeOutOfTheInternalClasses() throws IOException
    {
        assertEquals(List.of(), matches(MAIN.resolve("internal"), FACADE, true),
            "internal classes use the names in mpi.rma.internal.vocabulary, not Win's (which re-exports them)");
    }

    @Test
    void shouldKeepTheVocabularyALeaf() throws IOException
    {
        assertEquals(List.of(), matches(MAIN.resolve("internal").resolve("vocabulary"),
            Pattern.compile("^import mpi\\.rma\\."), false), "the vocabulary imports nothing of the api");
    }

    @Test
    void shouldReachTheWindowsPartsWithoutDowncasts() throws IOException
    {
        assertEquals(List.of(), matches(MAIN.resolve("Win.java"), CAST, true),
            "Win reaches its parts through their interfaces (TargetPath, AttachedMemory), not by casts");
    }

    /** Each line of a Java file under {@code root} that {@code pattern} finds, as "file:line: text". */
    private static List<String> matches(final Path root, final Pattern pattern, final boolean codeOnly)
        throws IOException
    {
        try (Stream<Path> files = Files.walk(root))
        {
            return files.filter(file -> file.toString().endsWith(".java")).sorted().flatMap(file ->
            {
                final List<String> lines = read(file);
                return IntStream.range(0, lines.size())
                    .filter(i -> !(codeOnly && isComment(lines.get(i))) && pattern.matcher(lines.get(i)).find())
                    .mapToObj(i -> MAIN.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
            }).toList();
        }
    }

    private static boolean isComment(final String line)
    {
        final String text = line.strip();
        return text.startsWith("*") || text.startsWith("/*") || text.startsWith("//");
    }

    private static List<String> read(final Path file)
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
