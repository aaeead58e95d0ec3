/*
 * MPI_Allreduce timed the way `jccl perf allreduce` times itself, so the two can run side by side:
 * float32 sum, sizes from MIN to MAX bytes doubling, buffers allocated once at the largest size,
 * a few warm-up calls, then ITERS timed calls per size; rank 0 prints the slowest rank's mean time.
 *
 * Usage: mpirun -np 2 ./mpi_allreduce MIN_BYTES MAX_BYTES ITERS [BYTES_PER_SIZE]
 * With BYTES_PER_SIZE, a size runs more than ITERS calls, up to 20000, until it has moved that many
 * bytes (the rule of `jccl perf --bytes-per-size`).
 * Output: one line per size: "<bytes> <time_us> <algbw_GBps> <busbw_GBps>"
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 4 && argc != 5) {
        if (rank == 0) fprintf(stderr, "usage: %s MIN_BYTES MAX_BYTES ITERS [BYTES_PER_SIZE]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    long min = atol(argv[1]), max = atol(argv[2]);
    int iters = atoi(argv[3]);
    long perSize = argc == 5 ? atol(argv[4]) : 0;
    long maxCount = max / 4 > 0 ? max / 4 : 1;
    float *in = malloc(maxCount * sizeof(float)), *out = malloc(maxCount * sizeof(float));
    for (long i = 0; i < maxCount; i++) { in[i] = (float) (rank + 1); out[i] = 0; }
    for (long bytes = min; bytes <= max; bytes *= 2) {
        int count = (int) (bytes / 4 > 0 ? bytes / 4 : 1);
        int n = iters;
        if (perSize > 0) {
            long scaled = perSize / (bytes > 0 ? bytes : 1);
            if (scaled > 20000) scaled = 20000;
            if (scaled > n) n = (int) scaled;
        }
        for (int w = 0; w < 5; w++) MPI_Allreduce(in, out, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++) MPI_Allreduce(in, out, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        double mine = (MPI_Wtime() - t0) / n, slowest;
        MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            double algbw = (double) count * 4 / slowest / 1e9;
            printf("%ld %.2f %.3f %.3f\n", (long) count * 4, slowest * 1e6, algbw, algbw * 2.0 * (size - 1) / size);
            fflush(stdout);
        }
        if (out[0] != (float) (size * (size + 1) / 2)) {
            fprintf(stderr, "rank %d: wrong result %f\n", rank, out[0]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
