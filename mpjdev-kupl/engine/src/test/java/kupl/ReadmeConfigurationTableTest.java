package kupl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** The README's configuration table is the one {@link KuplEnv} prints, so the two cannot drift apart. */
class ReadmeConfigurationTableTest
{
    private static final String BEGIN = "<!-- kupl-env-table:begin -->\n";
    private static final String END = "<!-- kupl-env-table:end -->";

    @Test
    void shouldMatchTheTablePrintedFromKuplEnv() throws IOException
    {
        final Path readme = Path.of(System.getProperty("user.dir")).resolve("../../README.md").normalize();
        final String text = Files.readString(readme);
        final int begin = text.indexOf(BEGIN);
        final int end = text.indexOf(END);
        assertTrue(begin >= 0 && end > begin, readme + " lacks the " + BEGIN.trim() + " ... " + END + " markers");
        assertEquals(KuplEnv.markdownTable(), text.substring(begin + BEGIN.length(), end),
            "README.md's configuration table is stale: paste the output of 'java -cp mpjdev-kupl/engine/target/classes kupl.KuplEnv'");
    }
}
