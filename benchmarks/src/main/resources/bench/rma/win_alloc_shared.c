/*
 * Open MPI's figure beside bench.rma.RmaBenchRank's "alloc-free-<bytes>" rows: MPI_Win_allocate_shared
 * of <bytes> per process on MPI_COMM_WORLD, then MPI_Win_free, timed the same way (a warm-up, rank 0
 * sizes a repetition to about <repetition target> ns and broadcasts the count, then <repetitions>
 * repetitions), printed as bench.harness.Samples lines: "bench ompi-alloc-free-<bytes> rank=R ops=N ns...".
 * The window memory is left untouched, as the Java rows leave theirs.
 *
 * usage: win_alloc_shared <bytes> <repetitions> <repetition target ns>
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double allocate_and_free(MPI_Aint bytes, long ops)
{
    const double start = MPI_Wtime();
    for (long i = 0; i < ops; i++)
    {
        void *base;
        MPI_Win win;
        MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        MPI_Win_free(&win);
    }
    return MPI_Wtime() - start;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc != 4)
    {
        fprintf(stderr, "usage: %s <bytes> <repetitions> <repetition target ns>\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const MPI_Aint bytes = atol(argv[1]);
    const int repetitions = atoi(argv[2]);
    const double target_ns = atof(argv[3]);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    long ops = 200;
    for (int sizing = 0; sizing < 2; sizing++)
    {
        const double ns_per_op = allocate_and_free(bytes, ops) * 1e9 / ops;
        ops = (long)(target_ns / (ns_per_op > 1 ? ns_per_op : 1));
        ops = ops < 100 ? 100 : ops;
        MPI_Bcast(&ops, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    }
    double *ns = malloc(sizeof(double) * repetitions);
    for (int r = 0; r < repetitions; r++)
    {
        MPI_Barrier(MPI_COMM_WORLD);
        ns[r] = allocate_and_free(bytes, ops) * 1e9 / ops;
    }
    printf("bench ompi-alloc-free-%ld rank=%d ops=%ld", (long)bytes, rank, ops);
    for (int r = 0; r < repetitions; r++)
    {
        printf(" %.3f", ns[r]);
    }
    printf("\n");
    free(ns);
    MPI_Finalize();
    return 0;
}
