/*
 * MPI_Allreduce latency, as bench.device.DeviceRank's allreduce (osu_allreduce's loop at one size): every
 * rank sums 8 doubles with MPI_Allreduce; the figure is ns per call, printed by every rank.
 *
 * Usage: allreduce WARMUP_MS REPETITIONS TARGET_NS
 */
#include "bench_common.h"

static long long allreduce(const long long ops)
{
    const double in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    double out[8];
    long long i;
    const long long start_ns = bench_now_ns();
    for (i = 0; i < ops; i++)
    {
        MPI_Allreduce(in, out, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    return bench_now_ns() - start_ns;
}

int main(int argc, char **argv)
{
    return bench_main(argc, argv, "allreduce", 0, allreduce, bench_ns_per_op, 1);
}
