/*
 * MPI_Allreduce timed the way `jccl perf allreduce` times itself, so the two can run side by side:
 * float32 sum, sizes from MIN to MAX bytes multiplied by FACTOR, buffers allocated once at the
 * largest size. Per size: 5 warm-up calls, timed; the ranks agree (MAX) on calls per batch, enough
 * to fill BATCH_US and to time MIN_ITERS calls in all; one untimed batch; then BATCHES timed
 * batches, each call's completion stamped. The time is the median over batches of the time per
 * call; p50/p99 are of single calls; each figure is the slowest rank's.
 *
 * Usage: mpirun -np 2 ./mpi_allreduce MIN_BYTES MAX_BYTES FACTOR BATCHES BATCH_US MIN_ITERS
 * Output: one line per size: "<bytes> <median_us> <p50_us> <p99_us> <mean_us> <algbw_GBps> <busbw_GBps>"
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_PER_BATCH 20000

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Nearest rank on sorted values, as jccl's CallStats does. */
static double percentile(const double *sorted, int n, double p) {
    int rank = (int) (p * n + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return sorted[rank - 1];
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 7) {
        if (rank == 0) fprintf(stderr, "usage: %s MIN_BYTES MAX_BYTES FACTOR BATCHES BATCH_US MIN_ITERS\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    long min = atol(argv[1]), max = atol(argv[2]), factor = atol(argv[3]);
    int batches = atoi(argv[4]), minIters = atoi(argv[6]);
    double batchS = atof(argv[5]) / 1e6;
    if (min < 1 || max < min || factor < 2 || batches < 1 || batchS <= 0 || minIters < 1) {
        if (rank == 0) fprintf(stderr, "%s: need 1 <= MIN <= MAX, FACTOR >= 2, BATCHES >= 1, BATCH_US > 0, MIN_ITERS >= 1\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    long maxCount = max / 4 > 0 ? max / 4 : 1;
    float *in = malloc(maxCount * sizeof(float)), *out = malloc(maxCount * sizeof(float));
    double *stamps = malloc(((size_t) batches * MAX_PER_BATCH + 1) * sizeof(double));
    double *single = malloc((size_t) batches * MAX_PER_BATCH * sizeof(double));
    double *batchMeans = malloc(batches * sizeof(double));
    for (long i = 0; i < maxCount; i++) { in[i] = (float) (rank + 1); out[i] = 0; }
    for (long bytes = min; bytes <= max; bytes *= factor) {
        int count = (int) (bytes / 4 > 0 ? bytes / 4 : 1);
        double w0 = MPI_Wtime();
        for (int w = 0; w < 5; w++) MPI_Allreduce(in, out, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        double perCall = (MPI_Wtime() - w0) / 5, slowestPerCall;
        MPI_Allreduce(&perCall, &slowestPerCall, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        long k = (long) (batchS / (slowestPerCall > 0 ? slowestPerCall : 1e-9));
        long byCount = (minIters + batches - 1) / batches;
        if (k < byCount) k = byCount;
        if (k > MAX_PER_BATCH) k = MAX_PER_BATCH;
        if (k < 1) k = 1;
        for (long i = 0; i < k; i++) MPI_Allreduce(in, out, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        long calls = k * batches;
        stamps[0] = MPI_Wtime();
        for (long i = 0; i < calls; i++) {
            MPI_Allreduce(in, out, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            stamps[i + 1] = MPI_Wtime();
        }
        for (int b = 0; b < batches; b++) batchMeans[b] = (stamps[(b + 1) * k] - stamps[b * k]) / k;
        for (long i = 0; i < calls; i++) single[i] = stamps[i + 1] - stamps[i];
        qsort(single, calls, sizeof(double), cmp_double);
        double mine[4] = {median(batchMeans, batches), percentile(single, calls, 0.50), percentile(single, calls, 0.99),
                          (stamps[calls] - stamps[0]) / calls};
        double slowest[4];
        MPI_Reduce(mine, slowest, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            double algbw = (double) count * 4 / slowest[0] / 1e9;
            printf("%ld %.2f %.2f %.2f %.2f %.3f %.3f\n", (long) count * 4, slowest[0] * 1e6, slowest[1] * 1e6, slowest[2] * 1e6,
                   slowest[3] * 1e6, algbw, algbw * 2.0 * (size - 1) / size);
            fflush(stdout);
        }
        if (out[0] != (float) (size * (size + 1) / 2)) {
            fprintf(stderr, "rank %d: wrong result %f\n", rank, out[0]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (bytes > max / factor) break;
    }
    free(in);
    free(out);
    free(stamps);
    free(single);
    free(batchMeans);
    MPI_Finalize();
    return 0;
}
