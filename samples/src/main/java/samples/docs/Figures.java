package samples.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import kupl.RecursiveDoublingSteps;

/**
 * Writes the tutorial's figures ({@code docs/*.svg}) from the project's own rules, so that a
 * picture cannot drift from the code: the layout of a window's segments, and the rounds of the
 * recursive-doubling fence taken from the engine's schedule ({@link RecursiveDoublingSteps}).
 * A test checks that the committed files are what this program writes.
 *
 * <p>Run from the repository root: {@code java -cp samples/target/classes:$(cat
 * samples/target/runtime.classpath) samples.docs.Figures docs}.
 */
public final class Figures
{
    /** The figure of a window's layout. */
    public static final String WINDOW_LAYOUT = "window-layout.svg";
    /** The figure of the rd fence's rounds. */
    public static final String RD_FENCE = "rd-fence-" + RdFenceFigure.RANKS + ".svg";

    private Figures()
    {
    }

    /** Every figure: file name to SVG text. */
    public static Map<String, String> render()
    {
        final Map<String, String> figures = new LinkedHashMap<>();
        figures.put(WINDOW_LAYOUT, WindowLayoutFigure.render(List.of(64L, 32L, 0L, 96L)));
        figures.put(RD_FENCE, RdFenceFigure.render());
        return figures;
    }

    /**
     * Writes every figure into a directory.
     *
     * @param args the directory, {@code docs} if none is given.
     * @throws IOException if a file cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        final Path directory = Path.of(args.length > 0 ? args[0] : "docs");
        Files.createDirectories(directory);
        for (final Map.Entry<String, String> figure : render().entrySet())
        {
            final Path file = directory.resolve(figure.getKey());
            Files.writeString(file, figure.getValue(), StandardCharsets.UTF_8);
            System.out.println("wrote " + file);
        }
    }
}
