/*
 * The measuring loop shared by the Open MPI C reference programs of bench.device.DeviceBenchmark, shaped
 * like bench.device.DeviceRank so that the C figures and the Java figures mean the same thing:
 *
 *   1. warm-up: the operation runs in growing batches until rank 0 has seen WARMUP_MS pass
 *      (rank 0 decides and broadcasts, so every rank stops together);
 *   2. sizing: rank 0 times a batch and broadcasts how many operations make one repetition last
 *      about TARGET_NS, twice (the second time from a batch of the first estimate's size);
 *   3. REPETITIONS timed repetitions of that many operations;
 *   4. one line per reporting rank, the format bench.harness.Samples parses:
 *      bench <metric> rank=<rank> ops=<operations per repetition> <value> <value> ...
 *
 * Usage of every program: PROGRAM WARMUP_MS REPETITIONS TARGET_NS [BYTES]
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One measured operation: runs it ops times and returns the elapsed nanoseconds. */
typedef long long (*bench_run_fn)(long long ops);
/* The figure printed for one repetition of ops operations that took elapsed_ns. */
typedef double (*bench_value_fn)(long long ops, long long elapsed_ns);

/* The message size, when the program takes one (0 otherwise); set by bench_main before any run. */
static long long bench_bytes;
/* This process's rank in MPI_COMM_WORLD: only rank 0 reports a bad command line. */
static int bench_rank;

static inline long long bench_now_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* Nanoseconds per operation: the figure of latency programs. */
static inline double bench_ns_per_op(const long long ops, const long long elapsed_ns)
{
    return (double)elapsed_ns / (double)ops;
}

/* Bytes per nanosecond, that is GB/s (10^9 bytes per second): the figure of bandwidth programs. */
static inline double bench_gb_per_s(const long long ops, const long long elapsed_ns)
{
    return (double)bench_bytes * (double)ops / (double)elapsed_ns;
}

/* As bench.harness.Samples.opsPerRepetition, then at least 10 as bench.device.DeviceRank does. */
static inline long long bench_ops_per_repetition(const long long target_ns, const long long ops,
    const long long elapsed_ns)
{
    double ns_per_op = (double)elapsed_ns / (double)ops;
    long long sized;
    if (ns_per_op < 1.0)
    {
        ns_per_op = 1.0;
    }
    sized = (long long)((double)target_ns / ns_per_op);
    if (sized > 50000000LL)
    {
        sized = 50000000LL;
    }
    return sized < 100 ? 100 : sized;
}

static inline long long bench_parse(const char *const program, const char *const name, const char *const text,
    const long long min)
{
    char *end = NULL;
    long long value;
    errno = 0;
    value = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min)
    {
        if (bench_rank == 0)
        {
            fprintf(stderr, "%s: %s must be an integer >= %lld, not '%s'\n", program, name, min, text);
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return value;
}

/*
 * Runs the program: parses the arguments, measures run as described above and prints the line of
 * metric (with ":<BYTES>" appended when with_bytes). Only rank 0 prints unless every_rank_prints
 * (collectives: a repetition counts as long as its slowest rank). Returns main's status.
 */
static inline int bench_main(int argc, char **argv, const char *const metric, const int with_bytes,
    const bench_run_fn run, const bench_value_fn value, const int every_rank_prints)
{
    const int expected = with_bytes ? 5 : 4;
    long long warmup_ns, target_ns, ops, batch;
    int repetitions, rank, more, r, sizing;
    double *values;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    bench_rank = rank;
    if (argc != expected)
    {
        if (rank == 0)
        {
            fprintf(stderr, "usage: %s WARMUP_MS REPETITIONS TARGET_NS%s\n", argv[0], with_bytes ? " BYTES" : "");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    warmup_ns = bench_parse(argv[0], "WARMUP_MS", argv[1], 0) * 1000000LL;
    repetitions = (int)bench_parse(argv[0], "REPETITIONS", argv[2], 1);
    target_ns = bench_parse(argv[0], "TARGET_NS", argv[3], 1);
    bench_bytes = with_bytes ? bench_parse(argv[0], "BYTES", argv[4], 1) : 0;
    if (bench_bytes > 0x7fffffffLL)
    {
        if (rank == 0)
        {
            fprintf(stderr, "%s: BYTES=%lld is more than one MPI count can hold\n", argv[0], bench_bytes);
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    values = malloc(sizeof(double) * (size_t)repetitions);
    if (values == NULL)
    {
        fprintf(stderr, "%s: out of memory for %d repetitions\n", argv[0], repetitions);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* 1. Warm-up: pages touched, shared-memory channels set up, caches warm. */
    {
        const long long start_ns = bench_now_ns();
        for (batch = 10, more = 1; more; batch = batch * 2 < 10000 ? batch * 2 : 10000)
        {
            run(batch);
            more = bench_now_ns() - start_ns < warmup_ns;
            MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
        }
    }

    /* 2. Sizing: every rank runs the count rank 0 chose. */
    ops = 10;
    for (sizing = 0; sizing < 2; sizing++)
    {
        const long long elapsed_ns = run(ops);
        const long long sized = bench_ops_per_repetition(target_ns, ops, elapsed_ns);
        ops = sized < 10 ? 10 : sized;
        MPI_Bcast(&ops, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    }

    /* 3. The measured repetitions; nothing is printed inside them. */
    for (r = 0; r < repetitions; r++)
    {
        values[r] = value(ops, run(ops));
    }

    /* 4. One line, printed at once. */
    if (every_rank_prints || rank == 0)
    {
        if (with_bytes)
        {
            printf("bench %s:%lld rank=%d ops=%lld", metric, bench_bytes, rank, ops);
        }
        else
        {
            printf("bench %s rank=%d ops=%lld", metric, rank, ops);
        }
        for (r = 0; r < repetitions; r++)
        {
            printf(" %.3f", values[r]);
        }
        putchar('\n');
        fflush(stdout);
    }
    free(values);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}

/* A buffer of bench_bytes bytes (at least 1), touched so that no page fault lands in a timed loop. */
static inline char *bench_buffer(void)
{
    const size_t size = bench_bytes > 0 ? (size_t)bench_bytes : 1;
    char *const buffer = malloc(size);
    if (buffer == NULL)
    {
        fprintf(stderr, "out of memory for a buffer of %zu bytes\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buffer, 1, size);
    return buffer;
}

#endif
