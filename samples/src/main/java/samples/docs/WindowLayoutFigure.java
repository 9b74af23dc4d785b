package samples.docs;

import java.util.List;

/**
 * A window of uneven segments, laid out both ways: contiguous (the default: one shared object,
 * segments back to back in rank order, so rank r's starts where rank r-1's ends) and
 * noncontiguous ({@code alloc_shared_noncontig=true}: with {@code KUPL_SHM_TYPE=posix}, every
 * non-empty segment in its own object, mapped wherever the system puts it). Widths are
 * proportional to bytes.
 */
final class WindowLayoutFigure
{
    private static final int PIXELS_PER_BYTE = 4;
    private static final int LEFT = 20;
    private static final int BOX_HEIGHT = 44;
    private static final int GAP = 36;
    private static final String[] FILLS = {"#cfe2f3", "#d9ead3", "#fff2cc", "#f4cccc", "#d9d2e9", "#fce5cd"};

    private WindowLayoutFigure()
    {
    }

    static String render(final List<Long> sizes)
    {
        long total = 0;
        for (final long size : sizes)
        {
            total += size;
        }
        final int width = LEFT * 2 + (int)total * PIXELS_PER_BYTE + GAP * sizes.size();
        final Svg svg = new Svg(width, 300, "Segments of a shared window, contiguous and noncontiguous");

        svg.text(LEFT, 24, "start", "contiguous (default): one object, rank r's segment starts where rank r-1's ends");
        int x = LEFT;
        long offset = 0;
        for (int rank = 0; rank < sizes.size(); rank++)
        {
            final int boxWidth = (int)(sizes.get(rank) * PIXELS_PER_BYTE);
            if (boxWidth > 0)
            {
                svg.rect(x, 40, boxWidth, BOX_HEIGHT, FILLS[rank % FILLS.length], false)
                    .text(x + boxWidth / 2, 60, "middle", "rank " + rank)
                    .text(x + boxWidth / 2, 77, "middle", sizes.get(rank) + " B");
            }
            if (boxWidth > 0 || rank == 0)
            {
                // An empty segment starts where the next one does: one mark, not two on top of each other.
                svg.line(x, 36, x, 100, "#333", false, false).text(x, 114, "middle", Long.toString(offset));
            }
            x += boxWidth;
            offset += sizes.get(rank);
        }
        svg.line(x, 36, x, 100, "#333", false, false).text(x, 114, "middle", Long.toString(offset))
            .text(LEFT, 134, "start", "byte offsets from rank 0's base; empty segments (rank 2) take no room");

        svg.text(LEFT, 174, "start", "noncontiguous (alloc_shared_noncontig=true): with KUPL_SHM_TYPE=posix, one object per non-empty segment");
        x = LEFT;
        for (int rank = 0; rank < sizes.size(); rank++)
        {
            final int boxWidth = (int)(sizes.get(rank) * PIXELS_PER_BYTE);
            if (boxWidth > 0)
            {
                svg.rect(x, 190, boxWidth, BOX_HEIGHT, FILLS[rank % FILLS.length], false)
                    .text(x + boxWidth / 2, 210, "middle", "rank " + rank)
                    .text(x + boxWidth / 2, 227, "middle", sizes.get(rank) + " B");
                x += boxWidth + GAP;
            }
        }
        svg.text(LEFT, 264, "start", "each segment is reached only through sharedQuery(rank): " +
            "no arithmetic from one to the next");
        return svg.end();
    }
}
