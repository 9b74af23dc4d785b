/*
 * MPI_Barrier latency, as bench.device.DeviceRank's barrier (osu_barrier's loop): every rank calls
 * MPI_Barrier; the figure is ns per call, printed by every rank.
 *
 * Usage: barrier WARMUP_MS REPETITIONS TARGET_NS
 */
#include "bench_common.h"

static long long barrier(const long long ops)
{
    long long i;
    const long long start_ns = bench_now_ns();
    for (i = 0; i < ops; i++)
    {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return bench_now_ns() - start_ns;
}

int main(int argc, char **argv)
{
    return bench_main(argc, argv, "barrier", 0, barrier, bench_ns_per_op, 1);
}
