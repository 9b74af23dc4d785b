package samples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import samples.MpjJob;

/** The committed figures are what {@link Figures} writes now: regenerate them when the code changes. */
class FiguresTest
{
    @Test
    void shouldMatchCommittedFigures() throws IOException
    {
        for (final Map.Entry<String, String> figure : Figures.render().entrySet())
        {
            final Path committed = MpjJob.ROOT.resolve("docs").resolve(figure.getKey());
            assertEquals(figure.getValue(), Files.readString(committed, StandardCharsets.UTF_8), committed +
                " differs from what samples.docs.Figures writes: run it (see its Javadoc) and commit the result");
        }
    }

    @Test
    void shouldDrawOneArrowPerSignalOfSixProcessFence()
    {
        // pre 2 + round 1 4 + round 2 4 + post 2 signals, as the engine's schedule has them.
        final String svg = Figures.render().get(Figures.RD_FENCE);
        assertEquals(12, svg.split("marker-end", -1).length - 1);
    }
}
