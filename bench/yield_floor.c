/*
 * The floor for a small allreduce with more ranks than cores: N processes (a power of two) sum one
 * float by recursive doubling through flags in shared memory, each waiting by sched_yield, with no
 * library around it. Whatever a library adds to this is its own cost; what this costs is the
 * host's (a context switch per wait, as a core is handed between ranks).
 *
 * Each rank writes its partial sum and then a flag word (the call's number) into its partner's slot
 * for the step; slots alternate by the call's parity, so a rank one call ahead never overwrites a
 * value its partner has not read (every result depends on every rank's input). The result is
 * checked on every call, and a wait gives up after 10 s.
 *
 * Usage: ./yield_floor RANKS CALLS   (run it pinned, e.g. taskset -c 0,1 ./yield_floor 4 100000)
 * Output: "<median_us> <p99_us> <mean_us>" per call on rank 0, over the last three quarters of the calls.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_STEPS 8
/* A partner that died or stopped: give up on the call rather than wait forever. */
#define WAIT_LIMIT_NS 10000000000L

typedef struct {
    volatile uint64_t flag[2][MAX_STEPS];
    volatile float value[2][MAX_STEPS];
} __attribute__((aligned(128))) inbox_t;

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static int cmp_long(const void *a, const void *b) {
    long x = *(const long *) a, y = *(const long *) b;
    return x < y ? -1 : x > y;
}

static int run_rank(inbox_t *inbox, int rank, int ranks, int steps, long calls) {
    long *times = malloc(sizeof(long) * calls);
    float expected = ranks * (ranks + 1) / 2.0f;
    for (long call = 1; call <= calls; call++) {
        long start = now_ns();
        int parity = (int) (call & 1);
        float sum = rank + 1;
        for (int s = 0; s < steps; s++) {
            inbox_t *peer = &inbox[rank ^ (1 << s)];
            peer->value[parity][s] = sum;
            __atomic_store_n(&peer->flag[parity][s], (uint64_t) call, __ATOMIC_RELEASE);
            for (long spins = 1; __atomic_load_n(&inbox[rank].flag[parity][s], __ATOMIC_ACQUIRE) != (uint64_t) call; spins++) {
                sched_yield();
                if (spins % 4096 == 0 && now_ns() - start > WAIT_LIMIT_NS) {
                    fprintf(stderr, "rank %d call %ld step %d: no word from rank %d in 10 s\n", rank, call, s, rank ^ (1 << s));
                    return 1;
                }
            }
            sum += inbox[rank].value[parity][s];
        }
        if (sum != expected) {
            fprintf(stderr, "rank %d call %ld: %f, expected %f\n", rank, call, sum, expected);
            return 1;
        }
        times[call - 1] = now_ns() - start;
    }
    if (rank == 0) {
        long skip = calls / 4, n = calls - skip;
        double total = 0;
        for (long i = skip; i < calls; i++) total += times[i];
        qsort(times + skip, n, sizeof(long), cmp_long);
        printf("%.2f %.2f %.2f\n", times[skip + n / 2] / 1e3, times[skip + (n * 99) / 100] / 1e3, total / n / 1e3);
        fflush(stdout); /* the child leaves by _exit, which flushes nothing */
    }
    return 0;
}

int main(int argc, char **argv) {
    int ranks = argc > 1 ? atoi(argv[1]) : 4;
    long calls = argc > 2 ? atol(argv[2]) : 100000;
    int steps = 0;
    while ((1 << steps) < ranks) steps++;
    if (ranks < 2 || (1 << steps) != ranks || steps > MAX_STEPS || calls < 4) {
        fprintf(stderr, "usage: %s RANKS CALLS (RANKS a power of two, 2 to %d; CALLS >= 4)\n", argv[0], 1 << MAX_STEPS);
        return 2;
    }
    inbox_t *inbox = mmap(NULL, sizeof(inbox_t) * ranks, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (inbox == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    for (int r = 0; r < ranks; r++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) _exit(run_rank(inbox, r, ranks, steps, calls));
    }
    int failed = 0;
    for (int r = 0; r < ranks; r++) {
        int status;
        if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
    }
    return failed;
}
