package samples.docs;

/** A minimal SVG writer: integer coordinates only, so the text is the same on every machine. */
final class Svg
{
    private static final String FONT = "font-family=\"sans-serif\" font-size=\"13\"";

    private final StringBuilder text = new StringBuilder();

    Svg(final int width, final int height, final String title)
    {
        text.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
            .append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\">\n")
            .append("<title>").append(escape(title)).append("</title>\n")
            .append("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" ")
            .append("markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333\"/>")
            .append("</marker></defs>\n")
            .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    }

    Svg rect(final int x, final int y, final int width, final int height, final String fill, final boolean dashed)
    {
        text.append("<rect x=\"").append(x).append("\" y=\"").append(y).append("\" width=\"").append(width)
            .append("\" height=\"").append(height).append("\" fill=\"").append(fill)
            .append("\" stroke=\"#333\"").append(dashed ? " stroke-dasharray=\"4 3\"" : "").append("/>\n");
        return this;
    }

    Svg text(final int x, final int y, final String anchor, final String content)
    {
        text.append("<text x=\"").append(x).append("\" y=\"").append(y).append("\" text-anchor=\"").append(anchor)
            .append("\" ").append(FONT).append('>').append(escape(content)).append("</text>\n");
        return this;
    }

    Svg line(final int x1, final int y1, final int x2, final int y2, final String stroke, final boolean arrow,
        final boolean dashed)
    {
        text.append("<line x1=\"").append(x1).append("\" y1=\"").append(y1).append("\" x2=\"").append(x2)
            .append("\" y2=\"").append(y2).append("\" stroke=\"").append(stroke).append("\" stroke-width=\"")
            .append(arrow ? 2 : 1).append('"').append(dashed ? " stroke-dasharray=\"4 3\"" : "")
            .append(arrow ? " marker-end=\"url(#arrow)\"" : "").append("/>\n");
        return this;
    }

    String end()
    {
        return text + "</svg>\n";
    }

    private static String escape(final String content)
    {
        return content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
