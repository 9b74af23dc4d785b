package bench.report;

/** One part of a {@link Report}'s body, in the order the benchmark added it. */
public sealed interface Block permits Text, Table, Chart
{
}
