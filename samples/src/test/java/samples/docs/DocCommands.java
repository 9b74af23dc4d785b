package samples.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shell commands a Markdown document shows: every line of a {@code sh}, {@code bash}, {@code shell} or
 * {@code console} block (in a block with {@code $ } prompts, only the prompted lines: the others are output),
 * the lines of an unlabelled block that start with {@code bin/}, {@code mvn} or {@code java}, and, in the
 * prose, code spans that start with {@code bin/} (a script named in a sentence). A line ending in {@code \}
 * continues on the next; a {@code #} that starts a word starts a comment.
 */
final class DocCommands
{
    /** Languages whose blocks are shell, every line a command. */
    private static final Set<String> SHELL = Set.of("sh", "bash", "shell", "console");
    /** The first word of a command in an unlabelled block. */
    private static final Pattern UNLABELLED_COMMAND = Pattern.compile("^(?:[A-Z_]+=\\S*\\s+)*(?:bin/|mvn\\s|java\\s)");
    /** A code span of the prose: `...`. */
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern INLINE_COMMAND = Pattern.compile("^(?:[A-Z_]+=\\S*\\s+)*bin/[\\w-]+(\\s.*)?$");
    private static final String PROMPT = "$ ";

    private DocCommands()
    {
    }

    /**
     * A command as a document shows it.
     *
     * @param where  {@code FILE:LINE} of its first line.
     * @param text   the command, continuation lines joined.
     * @param fenced true for a command of a code block (a whole command line); false for a code span of the
     *               prose (which may name a script and a few of its options only).
     */
    record Command(String where, String text, boolean fenced)
    {
        @Override
        public String toString()
        {
            return where + ": `" + text + "`";
        }
    }

    /** The commands of {@code markdown}, named {@code source} in their {@link Command#where()}. */
    static List<Command> extract(final String source, final String markdown)
    {
        final List<Command> commands = new ArrayList<>();
        final List<String> lines = markdown.lines().toList();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i);
            final String stripped = line.strip();
            if (!stripped.startsWith("```"))
            {
                inlineCommands(source, i + 1, line, commands);
                continue;
            }
            final String language = stripped.substring(3).strip().toLowerCase(Locale.ROOT);
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).strip().startsWith("```"))
            {
                end++;
            }
            if (SHELL.contains(language) || language.isEmpty())
            {
                blockCommands(source, i + 2, lines.subList(i + 1, end), SHELL.contains(language), commands);
            }
            i = end;
        }
        return commands;
    }

    private static void blockCommands(final String source, final int firstLine, final List<String> block,
        final boolean shell, final List<Command> commands)
    {
        final boolean prompted = block.stream().anyMatch(line -> line.startsWith(PROMPT));
        StringBuilder pending = null;
        int pendingLine = 0;
        for (int j = 0; j < block.size(); j++)
        {
            String line = block.get(j);
            if (pending == null)
            {
                if (prompted)
                {
                    if (!line.startsWith(PROMPT))
                    {
                        continue;
                    }
                    line = line.substring(PROMPT.length());
                }
                else if (!shell && !UNLABELLED_COMMAND.matcher(line.strip()).find())
                {
                    continue;
                }
                if (line.isBlank() || line.strip().startsWith("#"))
                {
                    continue;
                }
                pending = new StringBuilder();
                pendingLine = firstLine + j;
            }
            final String text = line.strip();
            if (text.endsWith("\\"))
            {
                pending.append(text, 0, text.length() - 1).append(' ');
                continue;
            }
            pending.append(text);
            commands.add(new Command(source + ":" + pendingLine, pending.toString().strip(), true));
            pending = null;
        }
        if (pending != null)
        {
            commands.add(new Command(source + ":" + pendingLine, pending.toString().strip(), true));
        }
    }

    private static void inlineCommands(final String source, final int lineNumber, final String line,
        final List<Command> commands)
    {
        final Matcher span = CODE_SPAN.matcher(line);
        while (span.find())
        {
            final String text = span.group(1).strip();
            if (INLINE_COMMAND.matcher(text).matches())
            {
                commands.add(new Command(source + ":" + lineNumber, text, false));
            }
        }
    }
}
