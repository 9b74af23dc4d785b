package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The environment variables' table of docs/configuration.md is the one {@link KuplEnv} prints, so the two cannot
 * drift apart.
 */
class ConfigurationPageTableTest
{
    private static final String BEGIN = "<!-- kupl-env-table:begin -->\n";
    private static final String END = "<!-- kupl-env-table:end -->";

    @Test
    void shouldMatchTheTablePrintedFromKuplEnv() throws IOException
    {
        final Path page = Path.of(System.getProperty("user.dir")).resolve("../../docs/configuration.md").normalize();
        final String text = Files.readString(page);
        final int begin = text.indexOf(BEGIN);
        final int end = text.indexOf(END);
        assertTrue(begin >= 0 && end > begin, page + " lacks the " + BEGIN.trim() + " ... " + END + " markers");
        assertEquals(KuplEnv.markdownTable(), text.substring(begin + BEGIN.length(), end),
            "docs/configuration.md's table of environment variables is stale: paste the output of " +
                "'java -cp mpjdev-kupl/engine/target/classes kupl.KuplEnv'");
    }
}
