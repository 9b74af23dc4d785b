package conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The repository's text files, and the anchors of its Markdown files. */
final class Citations
{
    /** Directories that hold no source: build outputs and version control. */
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "target", "node_modules");
    private static final Set<String> TEXT_EXTENSIONS = Set.of("java", "md", "sh", "xml", "txt", "properties", "html");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

    private Citations()
    {
    }

    /** The repository's root: {@code kupl.root} as the build sets it, else the parent of this module. */
    static Path root()
    {
        final String property = System.getProperty("kupl.root");
        return (property != null ? Path.of(property) : Path.of(System.getProperty("user.dir"), "..")).toAbsolutePath()
            .normalize();
    }

    /** Every source, script and document of the repository, build outputs left out. */
    static List<Path> textFiles(final Path root)
    {
        try (Stream<Path> walk = Files.walk(root))
        {
            return walk.filter(Files::isRegularFile)
                .filter(file -> root.relativize(file).getNameCount() == 1 ||
                    !skipped(root.relativize(file).getParent()))
                .filter(file -> isText(root.relativize(file)))
                .sorted()
                .toList();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** The anchors a Markdown file offers: GitHub's slugs of its headings (outside code blocks) and explicit ids. */
    static Set<String> anchors(final Path markdown)
    {
        final Set<String> anchors = new LinkedHashSet<>();
        final Map<String, Integer> seen = new HashMap<>();
        boolean inCode = false;
        for (final String line : read(markdown).lines().toList())
        {
            if (line.stripLeading().startsWith("```"))
            {
                inCode = !inCode;
                continue;
            }
            if (inCode)
            {
                continue;
            }
            final Matcher heading = HEADING.matcher(line);
            if (heading.matches())
            {
                final String slug = Checklist.slug(heading.group(1));
                final int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
            final Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find())
            {
                anchors.add(html.group(1));
            }
        }
        return anchors;
    }

    static String read(final Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean skipped(final Path directory)
    {
        for (final Path part : directory)
        {
            if (SKIPPED_DIRECTORIES.contains(part.toString()))
            {
                return true;
            }
        }
        return false;
    }

    private static boolean isText(final Path relative)
    {
        final String name = relative.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        if (dot > 0)
        {
            return TEXT_EXTENSIONS.contains(name.substring(dot + 1));
        }
        // Scripts without an extension: bin/mpjrun, bin/lib/..., .ci/run.
        final String top = relative.getName(0).toString();
        return relative.getNameCount() > 1 && (top.equals("bin") || top.equals(".ci"));
    }
}
