package samples.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * A shell command line split as the shell splits it, for what documents show: words with their quotes
 * removed, {@code $(...)} kept inside its word, backslash escapes, a comment from a {@code #} that starts a word,
 * and simple commands separated at {@code ;}, {@code &&}, {@code ||} and {@code |}.
 */
final class ShellWords
{
    private ShellWords()
    {
    }

    /** The simple commands of {@code line}, each as its words; empty commands left out. */
    static List<List<String>> commands(final String line)
    {
        final List<List<String>> commands = new ArrayList<>();
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        int parens = 0;
        for (int i = 0; i < line.length(); i++)
        {
            final char c = line.charAt(i);
            if (quote != 0)
            {
                if (c == quote)
                {
                    quote = 0;
                }
                else if (c == '\\' && quote == '"' && i + 1 < line.length())
                {
                    word.append(line.charAt(++i));
                }
                else
                {
                    word.append(c);
                }
                continue;
            }
            if (parens > 0)
            {
                word.append(c);
                parens += c == '(' ? 1 : c == ')' ? -1 : 0;
                continue;
            }
            if (c == '\'' || c == '"')
            {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            }
            else if (c == '$' && i + 1 < line.length() && line.charAt(i + 1) == '(')
            {
                word = word == null ? new StringBuilder() : word;
                word.append("$(");
                parens = 1;
                i++;
            }
            else if (c == '\\' && i + 1 < line.length())
            {
                word = word == null ? new StringBuilder() : word;
                word.append(line.charAt(++i));
            }
            else if (c == '#' && word == null)
            {
                break;
            }
            else if (Character.isWhitespace(c))
            {
                if (word != null)
                {
                    words.add(word.toString());
                    word = null;
                }
            }
            else if (c == ';' || c == '|' || c == '&' && i + 1 < line.length() && line.charAt(i + 1) == '&')
            {
                if (word != null)
                {
                    words.add(word.toString());
                    word = null;
                }
                if (i + 1 < line.length() && (line.charAt(i + 1) == '|' || line.charAt(i + 1) == '&'))
                {
                    i++;
                }
                if (!words.isEmpty())
                {
                    commands.add(words);
                }
                words = new ArrayList<>();
            }
            else
            {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null)
        {
            words.add(word.toString());
        }
        if (!words.isEmpty())
        {
            commands.add(words);
        }
        return commands;
    }
}
