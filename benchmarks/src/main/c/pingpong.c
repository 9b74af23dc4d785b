/*
 * Ping-pong latency, as bench.device.DeviceRank's pingpong:<BYTES> (osu_latency's loop): ranks 0 and 1
 * bounce a message of BYTES bytes with blocking MPI_Send and MPI_Recv; the figure is half a round
 * trip in ns, measured by rank 0. Other ranks take part only in the loop's broadcasts.
 *
 * Usage: pingpong WARMUP_MS REPETITIONS TARGET_NS BYTES
 */
#include "bench_common.h"

static long long pingpong(const long long ops)
{
    static char *message;
    const int bytes = (int)bench_bytes;
    int rank;
    long long i;
    const long long start_ns = bench_now_ns();
    if (message == NULL)
    {
        message = bench_buffer();
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < ops && rank < 2; i++)
    {
        if (rank == 0)
        {
            MPI_Send(message, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(message, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        else
        {
            MPI_Recv(message, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(message, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    return bench_now_ns() - start_ns;
}

/* Half a round trip. */
static double half_round_trip_ns(const long long ops, const long long elapsed_ns)
{
    return (double)elapsed_ns / (2.0 * (double)ops);
}

int main(int argc, char **argv)
{
    return bench_main(argc, argv, "pingpong", 1, pingpong, half_round_trip_ns, 0);
}
