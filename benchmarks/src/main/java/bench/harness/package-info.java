/**
 * What every benchmark shares, so that a benchmark's package holds only what it measures:
 * {@link bench.harness.CommandLine}, the one option parser (each driver declares its options in a small options
 * class beside it; the report's {@link bench.harness.ReportOptions} are read for all of them, and a mistake ends in a
 * {@link bench.harness.UsageException} that names it with the driver's usage line);
 * {@link bench.harness.Stat}, the medians; {@link bench.harness.Samples}, the lines the rank programs print;
 * {@link bench.harness.Progress}, the progress lines on standard error; {@link bench.harness.Jobs}, where the
 * benchmarks' classes and MPJ_HOME are and an engine job run to its end; and what several benchmarks run beside
 * their own jobs ({@link bench.harness.MpjMulticore}, {@link bench.harness.FixedWait},
 * {@link bench.harness.TmpfsReservation}). Nothing here depends on another {@code bench} package.
 */
package bench.harness;
