/*
 * Streaming bandwidth, as bench.device.DeviceRank's bandwidth:<BYTES>: rank 0 sends messages of BYTES
 * bytes back to back with blocking MPI_Send, rank 1 receives each with a blocking MPI_Recv and
 * acknowledges the last with one byte; the figure is GB/s (10^9 bytes per second) seen by rank 0.
 * Unlike osu_bw there is no window of non-blocking sends: each MPI_Send of a large message waits
 * for its receive (rendezvous), exactly as in the Java program.
 *
 * Usage: bandwidth WARMUP_MS REPETITIONS TARGET_NS BYTES
 */
#include "bench_common.h"

static long long stream(const long long ops)
{
    static char *message;
    const int bytes = (int)bench_bytes;
    char ack = 0;
    int rank;
    long long i;
    const long long start_ns = bench_now_ns();
    if (message == NULL)
    {
        message = bench_buffer();
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
    {
        for (i = 0; i < ops; i++)
        {
            MPI_Send(message, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        }
        MPI_Recv(&ack, 1, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    else if (rank == 1)
    {
        for (i = 0; i < ops; i++)
        {
            MPI_Recv(message, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Send(&ack, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
    return bench_now_ns() - start_ns;
}

int main(int argc, char **argv)
{
    return bench_main(argc, argv, "bandwidth", 1, stream, bench_gb_per_s, 0);
}
