package bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The chart is an SVG document any XML parser reads, and its bars, printed ratios and target lines sit where
 * the figures put them: each bar starts at the axis's 0 and is as long as its ratio, the target line lies
 * at its bound on the same scale.
 */
class SvgRatioChartTest
{
    private static final double TOLERANCE = 0.11;

    @Test
    void shouldBeWellFormedSvgEvenWithMarkupInLabels() throws Exception
    {
        final Chart chart = new Chart("odd", "A < B & \"C\"", "x > y", List.of(
            Ratio.of("<script>&amp;", 1, 2, "us").against(Target.atMost(1.5))));

        final Document svg = parse(SvgRatioChart.render(chart));

        assertEquals("svg", svg.getDocumentElement().getLocalName());
        assertEquals("http://www.w3.org/2000/svg", svg.getDocumentElement().getNamespaceURI());
        assertEquals("A < B & \"C\"", texts(svg, "title").getFirst());
        assertEquals("<script>&amp;", texts(svg, "label").getFirst());
        assertEquals("x > y", texts(svg, "axis-label").getFirst());
    }

    @Test
    void shouldDrawEachBarFromZeroAsLongAsItsRatio() throws Exception
    {
        final Chart chart = new Chart("bars", "bars", "ratio", List.of(Ratio.of("one", 1, 1, ""),
            Ratio.of("two", 2, 1, ""), Ratio.of("half", 1, 2, "")));

        final Document svg = parse(SvgRatioChart.render(chart));
        final List<Element> bars = elements(svg, "rect", "bar");

        assertEquals(3, bars.size());
        final double zero = number(elements(svg, "line", "axis").getFirst(), "x1");
        for (final Element bar : bars)
        {
            assertEquals(zero, number(bar, "x"), TOLERANCE, "every bar starts at 0");
        }
        final double unit = number(bars.get(0), "width");
        assertEquals(2 * unit, number(bars.get(1), "width"), TOLERANCE);
        assertEquals(unit / 2, number(bars.get(2), "width"), TOLERANCE);
        // The dotted line at 1x ends where the 1x bar does; the tick labelled 1x lies under it.
        assertEquals(zero + unit, number(elements(svg, "line", "parity").getFirst(), "x1"), TOLERANCE);
        final List<Element> ticks = elements(svg, "text", "tick");
        final Element oneX = ticks.stream().filter(tick -> tick.getTextContent().equals("1x")).findFirst()
            .orElseThrow();
        assertEquals(zero + unit, number(oneX, "x"), TOLERANCE);
        // Bars are stacked top to bottom in the order given.
        assertTrue(number(bars.get(0), "y") < number(bars.get(1), "y") &&
            number(bars.get(1), "y") < number(bars.get(2), "y"));
    }

    @Test
    void shouldDrawOneTargetLineAtTheBoundWhenEveryRowSharesIt() throws Exception
    {
        final Document svg = parse(SvgRatioChart.render(Fixtures.fenceChart()));
        final List<Element> bars = elements(svg, "rect", "bar");
        final List<Element> targets = elements(svg, "line", "target");

        assertEquals(1, targets.size(), "one line for a target every row shares");
        final double zero = number(bars.getFirst(), "x");
        final double perUnit = number(bars.getFirst(), "width") / 1.2;
        final Element line = targets.getFirst();
        assertEquals(zero + 1.5 * perUnit, number(line, "x1"), TOLERANCE);
        assertEquals(number(line, "x1"), number(line, "x2"), TOLERANCE, "the target line is vertical");
        assertTrue(number(line, "y1") <= number(bars.getFirst(), "y") &&
            number(line, "y2") >= number(bars.getLast(), "y") + number(bars.getLast(), "height"),
            "the target line crosses every bar");
        assertEquals("target <= 1.5x", texts(svg, "target-label").getFirst());
    }

    @Test
    void shouldDrawEachRowsOwnTargetWhenTargetsDiffer() throws Exception
    {
        final Chart chart = new Chart("targets", "against targets", "ratio", List.of(
            Ratio.of("fence", 1, 1, "").against(Target.atMost(2)),
            Ratio.of("no target", 1, 1, ""),
            Ratio.of("copy", 1, 1, "").against(Target.atLeast(0.8))));

        final Document svg = parse(SvgRatioChart.render(chart));
        final List<Element> bars = elements(svg, "rect", "bar");
        final List<Element> targets = elements(svg, "line", "target");

        assertEquals(2, targets.size(), "a line for each row with a target");
        final double zero = number(bars.getFirst(), "x");
        final double perUnit = number(bars.getFirst(), "width");
        assertEquals(zero + 2 * perUnit, number(targets.get(0), "x1"), TOLERANCE);
        assertEquals(zero + 0.8 * perUnit, number(targets.get(1), "x1"), TOLERANCE);
        // Each within its own row: the first crosses the first bar, the second the third.
        assertTrue(number(targets.get(0), "y1") <= number(bars.get(0), "y") &&
            number(targets.get(0), "y2") < number(bars.get(1), "y"));
        assertTrue(number(targets.get(1), "y1") > number(bars.get(1), "y") &&
            number(targets.get(1), "y2") >= number(bars.get(2), "y"));
        assertTrue(texts(svg, "target-label").isEmpty());
    }

    @Test
    void shouldShowInColourAndInWordsWhetherEachRowMetItsTarget() throws Exception
    {
        final Chart chart = new Chart("met", "met", "ratio", List.of(
            Ratio.of("met", 1.2, 1, "").against(Target.atMost(1.5)),
            Ratio.of("missed", 1.8, 1, "").against(Target.atMost(1.5)),
            Ratio.of("rate missed", 0.5, 1, "").against(Target.atLeast(0.8)),
            Ratio.of("none", 0.7, 1, "")));

        final Document svg = parse(SvgRatioChart.render(chart));

        assertEquals(List.of("bar met", "bar missed", "bar missed", "bar plain"),
            elements(svg, "rect", "bar").stream().map(bar -> bar.getAttribute("class")).toList());
        assertEquals(List.of("1.20x, met", "1.80x, missed", "0.50x, missed", "0.70x"), texts(svg, "value"));
        final List<String> legend = texts(svg, "legend");
        assertTrue(legend.containsAll(List.of("met its target", "missed its target", "no target", "target")),
            legend::toString);
        assertTrue(!elements(svg, "rect", "bar met").getFirst().getAttribute("fill")
            .equals(elements(svg, "rect", "bar missed").getFirst().getAttribute("fill")));
    }

    @Test
    void shouldPrintEachRatioJustAfterItsBar() throws Exception
    {
        final Document svg = parse(SvgRatioChart.render(Fixtures.fenceChart()));
        final List<Element> bars = elements(svg, "rect", "bar");
        final List<Element> values = elements(svg, "text", "value");

        for (int row = 0; row < bars.size(); row++)
        {
            final Element bar = bars.get(row);
            final double end = number(bar, "x") + number(bar, "width");
            assertEquals(end + 6, number(values.get(row), "x"), TOLERANCE);
            final double y = number(values.get(row), "y");
            assertTrue(y > number(bar, "y") && y <= number(bar, "y") + number(bar, "height"),
                "the ratio is printed level with its bar");
        }
        // Each bar's tooltip gives both figures.
        assertTrue(bars.getFirst().getParentNode().getTextContent().contains("0.360 us against 0.300 us"),
            bars.getFirst().getParentNode().getTextContent());
    }

    @Test
    void shouldSayNotAvailableWithoutABarWhereARatioCouldNotBeComputed() throws Exception
    {
        final Chart chart = new Chart("na", "na", "ratio", List.of(Ratio.of("measured", 1, 1, ""),
            Ratio.of("reference missing", 1, Double.NaN, "").against(Target.atMost(1.5))));

        final Document svg = parse(SvgRatioChart.render(chart));

        assertEquals(1, elements(svg, "rect", "bar").size());
        assertEquals(List.of("1.00x", "n/a, missed"), texts(svg, "value"));
    }

    @Test
    void shouldStretchTheAxisToTheLargestRatioOrTarget() throws Exception
    {
        final Chart chart = new Chart("wide", "wide", "ratio", List.of(Ratio.of("big", 15, 1, ""),
            Ratio.of("small", 1, 1, "").against(Target.atMost(2))));

        final Document svg = parse(SvgRatioChart.render(chart));
        final Element bar = elements(svg, "rect", "bar").getFirst();
        final double plotRight = number(elements(svg, "line", "axis").getFirst(), "x2");

        assertTrue(number(bar, "x") + number(bar, "width") <= plotRight + TOLERANCE, "the bar fits the plot");
        assertEquals(List.of("0x", "2x", "4x", "6x", "8x", "10x", "12x", "14x", "16x"), texts(svg, "tick"));
    }

    @Test
    void shouldTurnTheAxisLogarithmicWhereRatiosSpanMoreThanTwentyFold() throws Exception
    {
        final Chart chart = new Chart("log", "log", "ratio", List.of(Ratio.of("tenth", 1, 10, ""),
            Ratio.of("one", 1, 1, ""), Ratio.of("ten", 10, 1, "").against(Target.atMost(3))));

        final Document svg = parse(SvgRatioChart.render(chart));
        final List<Element> bars = elements(svg, "rect", "bar");

        assertEquals(List.of("0.1x", "0.2x", "0.5x", "1x", "2x", "5x", "10x"), texts(svg, "tick"));
        assertTrue(texts(svg, "axis-label").getFirst().endsWith("; logarithmic scale"));
        // From 0.1x at the left end: 1x one decade along, 10x two, the target of 3x log10(30) decades.
        final double decade = number(bars.get(1), "width");
        assertEquals(0, number(bars.get(0), "width"), TOLERANCE);
        assertEquals(2 * decade, number(bars.get(2), "width"), TOLERANCE);
        assertEquals(number(bars.getFirst(), "x") + Math.log10(30) * decade,
            number(elements(svg, "line", "target").getFirst(), "x1"), TOLERANCE);
        assertEquals(List.of("0.10x", "1.00x", "10.00x, missed"), texts(svg, "value"));
    }

    @Test
    void shouldBreakALongAxisLabelIntoLinesThatFitTheImage() throws Exception
    {
        final String label = "shm time / Open MPI C time (for GB/s rows, the inverse of the rates; above 1: shm " +
            "takes longer), every word of it kept, however long the benchmark made it";
        final Chart chart = new Chart("long", "long", label, List.of(Ratio.of("a", 1, 1, "")));

        final Document svg = parse(SvgRatioChart.render(chart));
        final Element text = elements(svg, "text", "axis-label").getFirst();
        final NodeList lines = text.getElementsByTagNameNS("http://www.w3.org/2000/svg", "tspan");

        assertEquals(label, text.getTextContent(), "the lines read as the whole label");
        assertEquals(2, lines.getLength());
        for (int i = 0; i < lines.getLength(); i++)
        {
            assertTrue(lines.item(i).getTextContent().length() * 6.6 <= SvgRatioChart.WIDTH - 2 * SvgRatioChart.MARGIN);
        }
        assertEquals(List.of("ab ", "cd ", "e"), SvgRatioChart.wrap("ab cd e", 3));
    }

    @Test
    void shouldCutALabelTooLongForTheImageButKeepItWholeInTheTooltip() throws Exception
    {
        final String label = "post, start, put 8 B, complete, wait (one epoch), against the 8 B round trip";
        final Document svg = parse(SvgRatioChart.render(new Chart("cut", "cut", "ratio",
            List.of(Ratio.of(label, 1, 1, "")))));

        final String shown = texts(svg, "label").getFirst();
        assertTrue(shown.endsWith("\u2026") && label.startsWith(shown.substring(0, shown.length() - 1)), shown);
        final Element bar = elements(svg, "rect", "bar").getFirst();
        assertTrue(number(bar, "x") - 8 - shown.length() * 6.6 >= 0, "the label fits left of the plot");
        assertTrue(bar.getParentNode().getTextContent().contains(label));
    }

    static Document parse(final String svg) throws Exception
    {
        final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    /** The elements named {@code tag} whose class is {@code kind} or starts with it and a space. */
    static List<Element> elements(final Document svg, final String tag, final String kind)
    {
        final NodeList nodes = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", tag);
        final List<Element> found = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++)
        {
            final Element element = (Element)nodes.item(i);
            final String classes = element.getAttribute("class");
            if (classes.equals(kind) || classes.startsWith(kind + " "))
            {
                found.add(element);
            }
        }
        return found;
    }

    /** The words of the {@code text} elements of class {@code kind}, or of the document's title. */
    static List<String> texts(final Document svg, final String kind)
    {
        if (kind.equals("title"))
        {
            return List.of(svg.getDocumentElement().getElementsByTagNameNS("http://www.w3.org/2000/svg", "title")
                .item(0).getTextContent());
        }
        return elements(svg, "text", kind).stream().map(Element::getTextContent).toList();
    }

    private static double number(final Element element, final String attribute)
    {
        return Double.parseDouble(element.getAttribute(attribute));
    }
}
