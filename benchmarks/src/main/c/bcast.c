/*
 * MPI_Bcast bandwidth, as bench.device.DeviceRank's bcast:<BYTES> (osu_bcast's loop at one size): rank 0
 * broadcasts BYTES bytes to every other rank, calls back to back; the figure is GB/s (10^9 bytes
 * per second) that each receiver gets, printed by every rank (the slowest one counts).
 *
 * Usage: bcast WARMUP_MS REPETITIONS TARGET_NS BYTES
 */
#include "bench_common.h"

static long long bcast(const long long ops)
{
    static char *buffer;
    long long i;
    const long long start_ns = bench_now_ns();
    if (buffer == NULL)
    {
        buffer = bench_buffer();
    }
    for (i = 0; i < ops; i++)
    {
        MPI_Bcast(buffer, (int)bench_bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    return bench_now_ns() - start_ns;
}

int main(int argc, char **argv)
{
    return bench_main(argc, argv, "bcast", 1, bcast, bench_gb_per_s, 1);
}
