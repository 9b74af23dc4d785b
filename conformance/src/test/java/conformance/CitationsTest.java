package conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Every citation in the repository leads somewhere a reader can follow: a {@code docs/<file>.md#<anchor>}
 * names a file of this repository and one of its headings, a Markdown link to an anchor finds it,
 * and nothing cites documents that are not in the repository (a design "section n", a notes file,
 * the numbered checklist those used to have).
 */
class CitationsTest
{
    /** {@code docs/design.md#proc-null-targets}, in code, comments, strings and documents. */
    private static final Pattern DOCS_CITATION = Pattern.compile("(?<![\\w/.-])(docs/[\\w./-]+\\.md)#([\\w-]+)");
    /** A Markdown link with an anchor, relative to the document: {@code [x](design.md#y)}, {@code [x](#y)}. */
    private static final Pattern MARKDOWN_LINK = Pattern.compile("\\]\\(([^()\\s#:]*)#([^()\\s]+)\\)");
    /** Citations of documents that are not part of the repository. */
    private static final List<Pattern> FORBIDDEN = List.of(
        Pattern.compile("\\bDESIGN\\b"),
        Pattern.compile("\\bnotes/"),
        Pattern.compile("mpi3-shared-win[d]ows"),
        Pattern.compile("(?i)\\bchecklist items?\\s+\\d"));

    @Test
    void shouldFindEveryCitedDocumentAndAnchor()
    {
        final Path root = Citations.root();
        final List<String> broken = new ArrayList<>();
        int citations = 0;
        for (final Path file : Citations.textFiles(root))
        {
            final String text = Citations.read(file);
            final Matcher m = DOCS_CITATION.matcher(text);
            while (m.find())
            {
                citations++;
                check(root, file, text, m.start(), root.resolve(m.group(1)), m.group(2), broken);
            }
            if (file.toString().endsWith(".md"))
            {
                final Matcher link = MARKDOWN_LINK.matcher(text);
                while (link.find())
                {
                    final Path target = link.group(1).isEmpty() ? file : file.getParent().resolve(link.group(1)).normalize();
                    check(root, file, text, link.start(), target, link.group(2), broken);
                }
            }
        }
        assertTrue(citations >= 50, "found only " + citations + " docs/<file>.md#<anchor> citations under " + root +
            ": is kupl.root the repository?");
        assertEquals(List.of(), broken, "citations that lead nowhere");
    }

    @Test
    void shouldCiteNoDocumentOutsideTheRepository()
    {
        final Path root = Citations.root();
        final List<String> found = new ArrayList<>();
        for (final Path file : Citations.textFiles(root))
        {
            final String text = Citations.read(file);
            for (final Pattern forbidden : FORBIDDEN)
            {
                final Matcher m = forbidden.matcher(text);
                while (m.find())
                {
                    found.add(where(root, file, text, m.start()) + ": '" + m.group() +
                        "' cites a document this repository does not have; cite a heading of docs/design.md or " +
                        "docs/conformance-checklist.md (docs/<file>.md#<anchor>), an MPI-4.1 section or a test by name");
                }
            }
        }
        assertEquals(List.of(), found);
    }

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    private void check(final Path root, final Path file, final String text, final int offset, final Path target,
        final String anchor, final List<String> broken)
    {
        if (!Files.isRegularFile(target))
        {
            broken.add(where(root, file, text, offset) + ": no file " + root.relativize(target));
            return;
        }
        if (!target.toString().endsWith(".md"))
        {
            return;
        }
        final Set<String> known = anchors.computeIfAbsent(target, Citations::anchors);
        if (!known.contains(anchor))
        {
            broken.add(where(root, file, text, offset) + ": " + root.relativize(target) + " has no heading with anchor #" +
                anchor);
        }
    }

    private static String where(final Path root, final Path file, final String text, final int offset)
    {
        return root.relativize(file) + ":" + (1 + text.substring(0, offset).chars().filter(c -> c == '\n').count());
    }
}
