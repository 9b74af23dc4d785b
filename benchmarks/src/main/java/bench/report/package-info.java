/**
 * Benchmark reports: one model of what a run measured, written the same way by every benchmark.
 *
 * <p>A benchmark builds a {@link bench.report.Report} as it measures: Markdown {@link bench.report.Text},
 * {@link bench.report.Table}s of cells and {@link bench.report.Chart}s of {@link bench.report.Ratio}s (a figure
 * against its reference, with its {@link bench.report.Target} where it has one), the cells and the bars made from
 * the same numbers. {@link bench.report.ReportRun} prints each block to the console as it is added and, with
 * {@code --report DIR} ({@link bench.harness.ReportOptions}), writes the page and its charts at the end
 * ({@link bench.report.ReportFiles}): {@link bench.report.MarkdownReport} writes the page, stamped with the
 * {@link bench.report.RunStamp} (date, machine, JDK, load, command), and {@link bench.report.SvgRatioChart} each
 * chart, as plain SVG built from strings.
 */
package bench.report;
