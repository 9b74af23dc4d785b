package bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

/** Checks a benchmark's {@code --report} page against what it printed on the console. */
public final class ReportPages
{
    private static final Pattern IMAGE = Pattern.compile("!\\[[^]]*]\\(([^)]+)\\)");

    private ReportPages()
    {
    }

    /**
     * The page {@code directory/part.md} holds the console's tables, line for line and in order, and is stamped;
     * each chart it shows is a file beside it that parses as SVG.
     *
     * @return the page.
     */
    public static String assertPageMatchesConsole(final String console, final Path directory, final String part)
        throws Exception
    {
        final Path file = directory.resolve(part + ".md");
        assertTrue(Files.isRegularFile(file), () -> "no " + file + " after a run with --report; console:\n" + console);
        final String page = Files.readString(file);
        final List<String> consoleTables = console.lines().filter(line -> line.startsWith("|")).toList();
        final List<String> pageTables = page.lines().filter(line -> line.startsWith("|")).toList();
        assertFalse(consoleTables.isEmpty(), console);
        assertEquals(consoleTables, pageTables, "the page's tables are the console's");
        for (final String stamp : List.of("- date: ", "- machine: ", "- JDK: ", "- command: `", "- load average ",
            "- run time: ", "## Notes"))
        {
            assertTrue(page.lines().anyMatch(line -> line.startsWith(stamp)),
                () -> "no \"" + stamp + "\" in:\n" + page);
        }
        final Matcher images = IMAGE.matcher(page);
        int charts = 0;
        while (images.find())
        {
            final Path chart = directory.resolve(images.group(1));
            assertTrue(chart.getFileName().toString().startsWith(part + "-") && Files.isRegularFile(chart),
                () -> "the page shows " + chart + ", which is not there");
            final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            assertEquals("svg", factory.newDocumentBuilder().parse(chart.toFile()).getDocumentElement().getLocalName());
            charts++;
        }
        assertTrue(charts > 0, () -> "no chart in:\n" + page);
        return page;
    }
}
