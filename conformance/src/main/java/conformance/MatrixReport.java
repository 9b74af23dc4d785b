package conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The matrix as a table of cases by configuration: for the console, as Markdown
 * ({@code conformance.md}) and as one self-contained HTML page ({@code conformance.html}, no
 * scripts or files besides itself) with the failure messages. In both files each case links to
 * its entry in {@code docs/conformance-checklist.md} ({@link Checklist}).
 */
public final class MatrixReport
{
    /** The checklist seen from the default report directory, {@code target/conformance} of the repository. */
    static final String DEFAULT_CHECKLIST_HREF = "../../" + Checklist.PATH;

    private final List<ConfigurationRun> runs;
    private final Map<String, CaseInfo> cases = new LinkedHashMap<>();
    private final String checklistHref;

    public MatrixReport(final List<ConfigurationRun> runs)
    {
        this(runs, DEFAULT_CHECKLIST_HREF);
    }

    /**
     * @param checklistHref the checklist's address relative to where the reports will be written
     *                      (see {@link #checklistHref(Path)}).
     */
    public MatrixReport(final List<ConfigurationRun> runs, final String checklistHref)
    {
        this.runs = List.copyOf(runs);
        this.checklistHref = checklistHref;
        for (final ConfigurationRun run : runs)
        {
            run.cases().forEach(info -> cases.putIfAbsent(info.id(), info));
        }
    }

    public int caseCount()
    {
        return cases.size();
    }

    /** Whether every configuration ran and every case in it passed or was skipped. */
    public boolean allClean()
    {
        return runs.stream().allMatch(ConfigurationRun::isClean);
    }

    /** The console table: one row per case, one column per configuration (numbered, with a legend). */
    public String consoleTable()
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < runs.size(); i++)
        {
            final ConfigurationRun run = runs.get(i);
            text.append(String.format("  [%d] %-34s %s%n", i + 1, run.configuration().label(), summary(run)));
        }
        text.append("\nBy flavour and nodes:\n");
        for (final String row : axisRows())
        {
            text.append("  ").append(row).append('\n');
        }
        final int idWidth = cases.keySet().stream().mapToInt(String::length).max().orElse(4);
        text.append(String.format("%n%-" + idWidth + "s", "case"));
        for (int i = 0; i < runs.size(); i++)
        {
            if (runs.get(i).unavailable() == null)
            {
                text.append(String.format(" %5s", "[" + (i + 1) + "]"));
            }
        }
        text.append('\n');
        for (final String id : cases.keySet())
        {
            text.append(String.format("%-" + idWidth + "s", id));
            for (final ConfigurationRun run : ran())
            {
                text.append(String.format(" %5s", cell(run, id)));
            }
            text.append('\n');
        }
        final Map<String, List<String>> notes = flavourNotes();
        if (!notes.isEmpty())
        {
            text.append("\nNot on every flavour (skipped elsewhere):\n");
            notes.forEach((why, ids) -> text.append("  ").append(why).append(":\n    ").append(String.join(", ", ids))
                .append('\n'));
        }
        final String failures = failureList("  ");
        if (!failures.isEmpty())
        {
            text.append("\nNot passed:\n").append(failures);
        }
        return text.toString();
    }

    public String markdown()
    {
        final StringBuilder md = new StringBuilder("# MPI-3 shared-window conformance\n\n");
        md.append(cases.size()).append(" cases, ").append(runs.size()).append(" configurations, run ")
            .append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append(".\n\n");
        md.append("| # | configuration | result | time |\n|---|---|---|---|\n");
        for (int i = 0; i < runs.size(); i++)
        {
            final ConfigurationRun run = runs.get(i);
            md.append("| ").append(i + 1).append(" | ").append(run.configuration().label()).append(" | ")
                .append(summary(run)).append(" | ").append(run.millis() / 1000.0).append(" s |\n");
        }
        md.append("\n| flavour, nodes | configurations | pass | skip | not passed |\n|---|---|---|---|---|\n");
        for (final AxisCell cell : axisCells().values())
        {
            md.append("| ").append(cell.name).append(" | ").append(cell.configurations).append(" | ").append(cell.pass)
                .append(" | ").append(cell.skip).append(" | ").append(cell.bad).append(" |\n");
        }
        md.append("\n| case | group |");
        for (int i = 0; i < runs.size(); i++)
        {
            if (runs.get(i).unavailable() == null)
            {
                md.append(' ').append(i + 1).append(" |");
            }
        }
        md.append(" expected | source |\n|---|---|").append("---|".repeat(ran().size())).append("---|---|\n");
        for (final CaseInfo info : cases.values())
        {
            md.append("| ").append(info.checklist().isEmpty() ? "`" + info.id() + "`" :
                "[`" + info.id() + "`](" + checklistHref + "#" + info.checklist() + ")").append(" | ")
                .append(info.group()).append(" |");
            for (final ConfigurationRun run : ran())
            {
                md.append(' ').append(cell(run, info.id())).append(" |");
            }
            md.append(' ').append(escapeMd(info.expectation())).append(" | ").append(escapeMd(info.source())).append(" |\n");
        }
        final Map<String, List<String>> notes = flavourNotes();
        if (!notes.isEmpty())
        {
            md.append("\n## Not on every flavour\n\n");
            notes.forEach((why, ids) -> md.append("- ").append(escapeMd(why)).append(": `")
                .append(String.join("`, `", ids)).append("`\n"));
        }
        final String failures = failureList("- ");
        if (!failures.isEmpty())
        {
            md.append("\n## Not passed\n\n").append(escapeMdLines(failures));
        }
        return md.toString();
    }

    public String html()
    {
        final StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" +
            "<title>MPI-3 shared-window conformance</title><style>" +
            "body{font-family:sans-serif;font-size:13px;margin:1em}table{border-collapse:collapse}" +
            "td,th{border:1px solid #ccc;padding:2px 5px;vertical-align:top}th{background:#eee}" +
            ".PASS{background:#c8f0c8}.SKIP{background:#eee;color:#777}.FAIL{background:#f8b0b0}" +
            ".ERROR{background:#f0a0f0}.TIMEOUT{background:#f8d890}.NORUN{background:#ccc}" +
            ".na{background:#ddd;color:#777}td.m{font-size:11px;max-width:40em}</style></head><body>\n");
        h.append("<h1>MPI-3 shared-window conformance</h1>\n<p>").append(cases.size()).append(" cases, ")
            .append(runs.size()).append(" configurations, run ")
            .append(esc(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME))).append(".</p>\n");
        h.append("<table><tr><th>#</th><th>configuration</th><th>result</th><th>time</th></tr>\n");
        for (int i = 0; i < runs.size(); i++)
        {
            final ConfigurationRun run = runs.get(i);
            h.append("<tr><td>").append(i + 1).append("</td><td>").append(esc(run.configuration().label()))
                .append("</td><td").append(run.isClean() ? " class=\"PASS\">" : " class=\"FAIL\">")
                .append(esc(summary(run))).append("</td><td>").append(run.millis() / 1000.0).append(" s</td></tr>\n");
        }
        h.append("</table>\n<h2>By flavour and nodes</h2>\n<table><tr><th>flavour, nodes</th><th>configurations</th>" +
            "<th>pass</th><th>skip</th><th>not passed</th></tr>\n");
        for (final AxisCell cell : axisCells().values())
        {
            h.append("<tr><td>").append(esc(cell.name)).append("</td><td>").append(cell.configurations)
                .append("</td><td>").append(cell.pass).append("</td><td>").append(cell.skip).append("</td><td")
                .append(cell.bad == 0 ? ">" : " class=\"FAIL\">").append(cell.bad).append("</td></tr>\n");
        }
        h.append("</table>\n");
        final Map<String, List<String>> notes = flavourNotes();
        if (!notes.isEmpty())
        {
            h.append("<h2>Not on every flavour</h2>\n<ul>\n");
            notes.forEach((why, ids) -> h.append("<li>").append(esc(why)).append(": <code>")
                .append(esc(String.join(", ", ids))).append("</code></li>\n"));
            h.append("</ul>\n");
        }
        h.append("<h2>Cases by configuration</h2>\n<table><tr><th>case</th><th>group</th>");
        for (int i = 0; i < runs.size(); i++)
        {
            if (runs.get(i).unavailable() == null)
            {
                h.append("<th title=\"").append(esc(runs.get(i).configuration().label())).append("\">").append(i + 1)
                    .append("</th>");
            }
        }
        h.append("<th>expected</th><th>source</th></tr>\n");
        for (final CaseInfo info : cases.values())
        {
            final String code = "<code>" + esc(info.id()) + "</code>";
            h.append("<tr><td>").append(info.checklist().isEmpty() ? code :
                "<a href=\"" + esc(checklistHref + "#" + info.checklist()) + "\">" + code + "</a>")
                .append("</td><td>").append(esc(info.group())).append("</td>");
            for (final ConfigurationRun run : ran())
            {
                final CaseResult result = run.results().get(info.id());
                if (result == null)
                {
                    h.append("<td class=\"na\">-</td>");
                }
                else
                {
                    h.append("<td class=\"").append(result.status().name()).append("\" title=\"")
                        .append(esc(result.message().isEmpty() ? result.millis() + " ms" : result.message()))
                        .append("\">").append(cell(run, info.id())).append("</td>");
                }
            }
            h.append("<td class=\"m\">").append(esc(info.expectation())).append("</td><td class=\"m\">")
                .append(esc(info.source())).append("</td></tr>\n");
        }
        h.append("</table>\n");
        final StringBuilder failures = new StringBuilder();
        for (int i = 0; i < runs.size(); i++)
        {
            final ConfigurationRun run = runs.get(i);
            if (run.unavailable() != null)
            {
                failures.append("<tr><td>").append(i + 1).append("</td><td>(configuration)</td><td class=\"na\">")
                    .append("not run</td><td class=\"m\">").append(esc(run.unavailable())).append("</td></tr>\n");
            }
            for (final Map.Entry<String, CaseResult> entry : run.results().entrySet())
            {
                final CaseResult result = entry.getValue();
                if (!result.status().isGood())
                {
                    failures.append("<tr><td>").append(i + 1).append("</td><td><code>").append(esc(entry.getKey()))
                        .append("</code></td><td class=\"").append(result.status().name()).append("\">")
                        .append(result.status().name()).append("</td><td class=\"m\">").append(esc(result.message()))
                        .append("</td></tr>\n");
                }
            }
        }
        if (!failures.isEmpty())
        {
            h.append("<h2>Failure messages</h2>\n<table><tr><th>#</th><th>case</th><th>status</th><th>message</th></tr>\n")
                .append(failures).append("</table>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    /** Writes {@code conformance.md} and {@code conformance.html} into {@code directory}. */
    public void write(final Path directory) throws IOException
    {
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("conformance.md"), markdown(), StandardCharsets.UTF_8);
        Files.writeString(directory.resolve("conformance.html"), html(), StandardCharsets.UTF_8);
    }

    /**
     * The address of {@code docs/conformance-checklist.md} relative to {@code reportDirectory}: found
     * in the nearest directory above it that has one, else as from {@code target/conformance}.
     */
    public static String checklistHref(final Path reportDirectory)
    {
        final Path from = reportDirectory.toAbsolutePath().normalize();
        for (Path root = from; root != null; root = root.getParent())
        {
            final Path checklist = root.resolve(Checklist.PATH);
            if (Files.isRegularFile(checklist))
            {
                return from.relativize(checklist).toString().replace('\\', '/');
            }
        }
        return DEFAULT_CHECKLIST_HREF;
    }

    /** One cell of the flavour-by-nodes summary: the results of its configurations added up. */
    private static final class AxisCell
    {
        private final String name;
        private int configurations;
        private long pass;
        private long skip;
        private long bad;

        private AxisCell(final String name)
        {
            this.name = name;
        }
    }

    /** The flavour axis crossed with the nodes axis, in the order the configurations ran. */
    private Map<String, AxisCell> axisCells()
    {
        final Map<String, AxisCell> cells = new LinkedHashMap<>();
        for (final ConfigurationRun run : runs)
        {
            final Configuration configuration = run.configuration();
            final String name = configuration.flavour().call() + ", " + configuration.nodes() +
                (configuration.nodes() == 1 ? " node" : " nodes");
            final AxisCell cell = cells.computeIfAbsent(name, AxisCell::new);
            cell.configurations++;
            cell.pass += run.count(Status.PASS);
            cell.skip += run.count(Status.SKIP);
            cell.bad += run.results().size() - run.count(Status.PASS) - run.count(Status.SKIP) +
                (run.unavailable() != null ? 1 : 0);
        }
        return cells;
    }

    private List<String> axisRows()
    {
        return axisCells().values().stream().map(cell -> String.format("%-24s %3d configurations: %6d pass, " +
            "%5d skip, %d not passed", cell.name, cell.configurations, cell.pass, cell.skip, cell.bad)).toList();
    }

    /** The cases that do not run on every flavour, by their reason ("allocateShared: why"). */
    private Map<String, List<String>> flavourNotes()
    {
        final Map<String, List<String>> notes = new LinkedHashMap<>();
        for (final CaseInfo info : cases.values())
        {
            if (!info.flavourNote().isEmpty())
            {
                notes.computeIfAbsent(info.flavours() + " only: " + info.flavourNote(), why -> new ArrayList<>())
                    .add(info.id());
            }
        }
        return notes;
    }

    /** The configurations that ran: the grids have a column for each, the others appear in the list only. */
    private List<ConfigurationRun> ran()
    {
        return runs.stream().filter(run -> run.unavailable() == null).toList();
    }

    private static String summary(final ConfigurationRun run)
    {
        if (run.unavailable() != null)
        {
            return "not run: " + run.unavailable();
        }
        final StringBuilder text = new StringBuilder();
        text.append(run.count(Status.PASS)).append(" pass");
        for (final Status status : List.of(Status.SKIP, Status.FAIL, Status.ERROR, Status.TIMEOUT, Status.NORUN))
        {
            final long count = run.count(status);
            if (count > 0)
            {
                text.append(", ").append(count).append(' ').append(status.name().toLowerCase());
            }
        }
        return text.toString();
    }

    private static String cell(final ConfigurationRun run, final String id)
    {
        final CaseResult result = run.results().get(id);
        if (result == null)
        {
            return "-";
        }
        return switch (result.status())
        {
            case PASS -> "ok";
            case SKIP -> "skip";
            case FAIL -> "FAIL";
            case ERROR -> "ERR";
            case TIMEOUT -> "T/O";
            case NORUN -> "n/r";
        };
    }

    private String failureList(final String prefix)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < runs.size(); i++)
        {
            final ConfigurationRun run = runs.get(i);
            if (run.unavailable() != null)
            {
                text.append(prefix).append('[').append(i + 1).append("] not run: ").append(run.unavailable()).append('\n');
            }
            for (final Map.Entry<String, CaseResult> entry : run.results().entrySet())
            {
                if (!entry.getValue().status().isGood())
                {
                    text.append(prefix).append('[').append(i + 1).append("] ").append(entry.getKey()).append(' ')
                        .append(entry.getValue().status()).append(": ").append(entry.getValue().message()).append('\n');
                }
            }
        }
        return text.toString();
    }

    private static String escapeMd(final String text)
    {
        return text.replace("|", "\\|");
    }

    private static String escapeMdLines(final String text)
    {
        return text.replace("|", "\\|").replace("<", "&lt;");
    }

    private static String esc(final String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
