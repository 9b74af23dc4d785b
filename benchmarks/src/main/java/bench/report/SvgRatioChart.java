package bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Writes a {@link Chart} as a standalone SVG image: one horizontal bar per row, its length the ratio on a
 * linear axis that starts at 0 (logarithmic, from a power of ten, where the ratios span more than
 * {@value #LOG_SPREAD} times), its ratio printed after it; the target drawn as a dashed line (one across
 * the plot when every row has the same target, else one per row), and a dotted line at 1x, where a figure
 * equals its reference. A bar is green where it meets its target, red where it misses it, blue-grey where it
 * has none, and says so in words after the ratio. A legend and the axis's label sit under the plot; each bar
 * carries its figures as a tooltip.
 *
 * <pre>
 *            title
 *                         target &lt;= 1.5x
 *   label  |██████████████  1.20x, met
 *   label  |██████████████████████  1.80x, missed
 *          +-----+-----+--:--+-----+
 *          0    0.5    1    1.5    2
 *                 axis label
 *   [■] met its target  [■] missed its target  [¦] target  [:] 1x: equal to the reference
 * </pre>
 * Plain string building: no library, every element named by its {@code class} (bar, value, label, target,
 * parity, axis, tick, legend), so that a test or a stylesheet can find it.
 */
public final class SvgRatioChart
{
    static final int WIDTH = 800;
    static final int MARGIN = 12;
    static final int PLOT_TOP = 58;
    static final int ROW_HEIGHT = 26;
    static final int BAR_HEIGHT = 16;
    /** Room right of the plot for the longest printed ratio ("12.34x, missed"). */
    static final int VALUE_ROOM = 120;
    private static final double CHAR_WIDTH = 6.6;
    private static final int MIN_LABEL_WIDTH = 80;
    private static final int MAX_LABEL_WIDTH = 340;
    private static final String MET = "#2e7d32";
    private static final String MISSED = "#c62828";
    private static final String PLAIN = "#5c7ea8";
    private static final String INK = "#222222";
    private static final String GRID = "#dddddd";
    /** Beyond this ratio of the largest to the smallest figure, the axis is logarithmic: bars near 1x stay visible. */
    static final double LOG_SPREAD = 20;
    private static final int LINE_HEIGHT = 15;
    /** A decade narrower than this on a logarithmic axis is marked at its power of ten only. */
    private static final double MIN_DECADE_PX_FOR_2_AND_5 = 150;

    private final Chart chart;
    private final double plotLeft;
    private final double plotRight;
    private final double plotBottom;
    /** The axis's left end: 0 on a linear axis, a power of ten on a logarithmic one. */
    private final double axisMin;
    private final double axisMax;
    private final boolean logarithmic;
    /** The ratios the axis is marked at, left to right. */
    private final List<Double> ticks;

    private SvgRatioChart(final Chart chart)
    {
        this.chart = chart;
        final int longestLabel = chart.bars().stream().mapToInt(bar -> bar.label().length()).max().orElse(0);
        final double labelWidth = Math.clamp(Math.round(longestLabel * CHAR_WIDTH) + 8, MIN_LABEL_WIDTH,
            MAX_LABEL_WIDTH);
        this.plotLeft = MARGIN + labelWidth + 8;
        this.plotRight = WIDTH - MARGIN - VALUE_ROOM;
        this.plotBottom = PLOT_TOP + chart.bars().size() * ROW_HEIGHT;
        // The axis spans 1x, every ratio and every target.
        double largest = 1.0;
        double smallest = 1.0;
        for (final Ratio bar : chart.bars())
        {
            if (bar.isMeasured() && bar.value() > 0)
            {
                largest = Math.max(largest, bar.value());
                smallest = Math.min(smallest, bar.value());
            }
            if (bar.hasTarget())
            {
                largest = Math.max(largest, bar.target().bound());
                smallest = Math.min(smallest, bar.target().bound());
            }
        }
        this.logarithmic = largest / smallest > LOG_SPREAD;
        if (logarithmic)
        {
            this.axisMin = Math.pow(10, Math.floor(Math.log10(smallest)));
            this.axisMax = Math.pow(10, Math.ceil(Math.log10(largest)));
            this.ticks = logTicks(axisMin, axisMax, plotRight - plotLeft);
        }
        else
        {
            final double step = tickStep(largest);
            this.axisMin = 0;
            this.axisMax = Math.ceil(largest * 1.02 / step) * step;
            final List<Double> marks = new ArrayList<>();
            for (int i = 0; i <= Math.round(axisMax / step); i++)
            {
                marks.add(i * step);
            }
            this.ticks = List.copyOf(marks);
        }
    }

    /** The SVG document of {@code chart}. */
    public static String render(final Chart chart)
    {
        return new SvgRatioChart(Objects.requireNonNull(chart, "chart")).svg();
    }

    /** The x coordinate of ratio {@code value} on the chart's axis (the axis's left end for what lies left of it). */
    double x(final double value)
    {
        final double share = logarithmic ? Math.log(Math.max(value, axisMin) / axisMin) / Math.log(axisMax / axisMin) :
            value / axisMax;
        return plotLeft + (plotRight - plotLeft) * share;
    }

    private String svg()
    {
        final List<String> axisLines = wrap(chart.axisLabel() + (logarithmic ? "; logarithmic scale" : ""),
            (int)((WIDTH - 2 * MARGIN) / CHAR_WIDTH));
        final double extraLines = (axisLines.size() - 1) * LINE_HEIGHT;
        final double height = plotBottom + 86 + extraLines;
        final StringBuilder svg = new StringBuilder();
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
            .append(number(height)).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(number(height))
            .append("\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n");
        svg.append("  <title>").append(escape(chart.title())).append("</title>\n");
        svg.append("  <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        text(svg, "title", WIDTH / 2.0, 22, "middle", "font-size=\"15\" font-weight=\"bold\"", chart.title());
        grid(svg);
        for (int row = 0; row < chart.bars().size(); row++)
        {
            bar(svg, row, chart.bars().get(row));
        }
        // Over the bars, so that a bar shows where it crosses its target; under the ratios, which have a halo.
        targets(svg);
        for (int row = 0; row < chart.bars().size(); row++)
        {
            value(svg, row, chart.bars().get(row));
        }
        axis(svg);
        axisLabel(svg, axisLines);
        legend(svg, plotBottom + 62 + extraLines);
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** Vertical grid lines at each tick, and the dotted line at 1x. */
    private void grid(final StringBuilder svg)
    {
        for (final double tick : ticks.subList(1, ticks.size()))
        {
            line(svg, "grid", x(tick), PLOT_TOP, x(tick), plotBottom, "stroke=\"" + GRID + "\"");
        }
        line(svg, "parity", x(1), PLOT_TOP - 4, x(1), plotBottom,
            "stroke=\"#777777\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\"");
    }

    /** The row's label and, where it has a ratio, its bar with its figures as a tooltip. */
    private void bar(final StringBuilder svg, final int row, final Ratio ratio)
    {
        final double top = PLOT_TOP + row * ROW_HEIGHT;
        text(svg, "label", plotLeft - 8, textY(row), "end", "", fitted(ratio.label()));
        if (!ratio.isMeasured())
        {
            return;
        }
        final String kind = ratio.isMet() ? "met" : ratio.isMissed() ? "missed" : "plain";
        final String colour = ratio.isMet() ? MET : ratio.isMissed() ? MISSED : PLAIN;
        svg.append("  <g>\n    <title>").append(escape(ratio.label() + ": " + ratio.text() + ", " + ratio.figures() +
            (ratio.hasTarget() ? "; target " + ratio.target().describe() : ""))).append("</title>\n");
        svg.append("    <rect class=\"bar ").append(kind).append("\" x=\"").append(number(plotLeft))
            .append("\" y=\"").append(number(top + (ROW_HEIGHT - BAR_HEIGHT) / 2.0)).append("\" width=\"")
            .append(number(barWidth(ratio))).append("\" height=\"").append(BAR_HEIGHT).append("\" fill=\"")
            .append(colour).append("\"/>\n  </g>\n");
    }

    /** {@code label}, cut with an ellipsis where it would run past the image's left edge (the tooltip has it whole). */
    static String fitted(final String label)
    {
        final int fits = (int)(MAX_LABEL_WIDTH / CHAR_WIDTH);
        return label.length() <= fits ? label : label.substring(0, fits - 1) + "\u2026";
    }

    /** The ratio in words just after the bar's end, on white, so that the lines behind it do not cross it. */
    private void value(final StringBuilder svg, final int row, final Ratio ratio)
    {
        final String words = ratio.text() + (ratio.isMet() ? ", met" : ratio.isMissed() ? ", missed" : "");
        final double x = plotLeft + (ratio.isMeasured() ? barWidth(ratio) : 0) + 6;
        svg.append("  <rect class=\"value-ground\" x=\"").append(number(x - 2)).append("\" y=\"")
            .append(number(textY(row) - 11)).append("\" width=\"").append(number(words.length() * CHAR_WIDTH + 4))
            .append("\" height=\"14\" fill=\"#ffffff\" fill-opacity=\"0.85\"/>\n");
        text(svg, "value", x, textY(row), "start", "", words);
    }

    private double barWidth(final Ratio ratio)
    {
        return Math.max(0, x(ratio.value()) - plotLeft);
    }

    /** The baseline of row {@code row}'s label and ratio: centred on the bar. */
    private static double textY(final int row)
    {
        return PLOT_TOP + row * ROW_HEIGHT + ROW_HEIGHT / 2.0 + 4;
    }

    /** One dashed line across the plot if every bar has the same target, else one per bar with a target. */
    private void targets(final StringBuilder svg)
    {
        final List<Target> targets = chart.bars().stream().map(Ratio::target).distinct().toList();
        final String style = "stroke=\"" + INK + "\" stroke-width=\"2\" stroke-dasharray=\"6 3\"";
        if (targets.size() == 1 && targets.getFirst() != null)
        {
            final Target target = targets.getFirst();
            line(svg, "target", x(target.bound()), PLOT_TOP - 8, x(target.bound()), plotBottom, style);
            text(svg, "target-label", x(target.bound()), PLOT_TOP - 12, "middle", "font-weight=\"bold\"",
                "target " + target.describe());
            return;
        }
        for (int row = 0; row < chart.bars().size(); row++)
        {
            final Target target = chart.bars().get(row).target();
            if (target != null)
            {
                final double top = PLOT_TOP + row * ROW_HEIGHT;
                line(svg, "target", x(target.bound()), top + 1, x(target.bound()), top + ROW_HEIGHT - 1, style);
            }
        }
    }

    /** The axis line, its ticks with their ratios, and its label. */
    private void axis(final StringBuilder svg)
    {
        line(svg, "axis", plotLeft, plotBottom, plotRight, plotBottom, "stroke=\"" + INK + "\"");
        line(svg, "axis", plotLeft, PLOT_TOP - 4, plotLeft, plotBottom, "stroke=\"" + INK + "\"");
        for (final double tick : ticks)
        {
            line(svg, "tick", x(tick), plotBottom, x(tick), plotBottom + 5, "stroke=\"" + INK + "\"");
            text(svg, "tick", x(tick), plotBottom + 18, "middle", "", tickText(tick) + "x");
        }
    }

    /**
     * The axis's label under the tick labels, centred on the image: one text of one line per {@code <tspan>},
     * each ending in the space it was broken at, so that the text reads whole.
     */
    private void axisLabel(final StringBuilder svg, final List<String> lines)
    {
        svg.append("  <text class=\"axis-label\" x=\"").append(number(WIDTH / 2.0)).append("\" y=\"")
            .append(number(plotBottom + 38)).append("\" text-anchor=\"middle\" fill=\"").append(INK).append("\">");
        for (int i = 0; i < lines.size(); i++)
        {
            svg.append("<tspan x=\"").append(number(WIDTH / 2.0)).append("\" dy=\"").append(i == 0 ? 0 : LINE_HEIGHT)
                .append("\">").append(escape(lines.get(i))).append("</tspan>");
        }
        svg.append("</text>\n");
    }

    /** {@code words} broken at spaces into lines of at most {@code width} characters, each but the last ending in one. */
    static List<String> wrap(final String words, final int width)
    {
        final List<String> lines = new ArrayList<>();
        String rest = words;
        while (rest.length() > width)
        {
            int cut = rest.lastIndexOf(' ', width);
            if (cut <= 0)
            {
                cut = width - 1;
            }
            lines.add(rest.substring(0, cut + 1));
            rest = rest.substring(cut + 1);
        }
        lines.add(rest);
        return lines;
    }

    /** Swatches for the kinds of bar the chart has, then the two lines. */
    private void legend(final StringBuilder svg, final double y)
    {
        final List<String[]> items = new ArrayList<>();
        if (chart.bars().stream().anyMatch(Ratio::isMet))
        {
            items.add(new String[] {"rect", MET, "met its target"});
        }
        if (chart.bars().stream().anyMatch(Ratio::isMissed))
        {
            items.add(new String[] {"rect", MISSED, "missed its target"});
        }
        if (chart.bars().stream().anyMatch(bar -> !bar.hasTarget()))
        {
            items.add(new String[] {"rect", PLAIN, "no target"});
        }
        if (chart.bars().stream().anyMatch(Ratio::hasTarget))
        {
            items.add(new String[] {"target", INK, "target"});
        }
        items.add(new String[] {"parity", "#777777", "1x: equal to the reference"});
        double x = MARGIN;
        for (final String[] item : items)
        {
            if (item[0].equals("rect"))
            {
                svg.append("  <rect class=\"legend\" x=\"").append(number(x)).append("\" y=\"").append(number(y - 10))
                    .append("\" width=\"12\" height=\"12\" fill=\"").append(item[1]).append("\"/>\n");
            }
            else
            {
                line(svg, "legend", x + 6, y - 11, x + 6, y + 3, "stroke=\"" + item[1] + "\" stroke-width=\"2\" " +
                    (item[0].equals("target") ? "stroke-dasharray=\"4 2\"" : "stroke-dasharray=\"2 2\""));
            }
            text(svg, "legend", x + 17, y, "start", "", item[2]);
            x += 17 + item[2].length() * CHAR_WIDTH + 18;
        }
    }

    /**
     * Marks at each power of ten from {@code min} to {@code max} (both powers of ten), and at 2 and 5 times each
     * where a decade is wide enough on {@code widthPx} of plot that their labels do not run into each other.
     */
    static List<Double> logTicks(final double min, final double max, final double widthPx)
    {
        final long decades = Math.round(Math.log10(max / min));
        final double[] multiples = widthPx / decades >= MIN_DECADE_PX_FOR_2_AND_5 ? new double[] {1, 2, 5} :
            new double[] {1};
        final List<Double> marks = new ArrayList<>();
        for (int decade = 0; decade < decades; decade++)
        {
            for (final double multiple : multiples)
            {
                marks.add(min * Math.pow(10, decade) * multiple);
            }
        }
        marks.add(max);
        return List.copyOf(marks);
    }

    /** A step of 1, 2, 2.5 or 5 times a power of ten that divides {@code largest} into at most 8 ticks. */
    static double tickStep(final double largest)
    {
        final double power = Math.pow(10, Math.floor(Math.log10(largest / 8)));
        for (final double multiple : new double[] {1, 2, 2.5, 5, 10})
        {
            if (largest / (multiple * power) <= 8)
            {
                return multiple * power;
            }
        }
        return 10 * power;
    }

    private static String tickText(final double tick)
    {
        final String text = tick < 0.01 && tick > 0 ? String.format(Locale.ROOT, "%.4f", tick) :
            String.format(Locale.ROOT, "%.2f", tick);
        return text.replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    private static void line(final StringBuilder svg, final String kind, final double x1, final double y1,
        final double x2, final double y2, final String style)
    {
        svg.append("  <line class=\"").append(kind).append("\" x1=\"").append(number(x1)).append("\" y1=\"")
            .append(number(y1)).append("\" x2=\"").append(number(x2)).append("\" y2=\"").append(number(y2))
            .append("\" ").append(style).append("/>\n");
    }

    private static void text(final StringBuilder svg, final String kind, final double x, final double y,
        final String anchor, final String style, final String words)
    {
        svg.append("  <text class=\"").append(kind).append("\" x=\"").append(number(x)).append("\" y=\"")
            .append(number(y)).append("\" text-anchor=\"").append(anchor).append('"')
            .append(style.isEmpty() ? "" : " " + style).append(" fill=\"").append(INK).append("\">")
            .append(escape(words)).append("</text>\n");
    }

    private static String number(final double value)
    {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** Text for XML character data and attribute values. */
    static String escape(final String text)
    {
        final StringBuilder escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                default -> escaped.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
            }
        }
        return escaped.toString();
    }
}
