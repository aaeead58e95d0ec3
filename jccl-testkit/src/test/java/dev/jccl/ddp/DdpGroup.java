package dev.jccl.ddp;

import dev.jccl.testkit.RankRunner;
import dev.jccl.testkit.ddp.InMemoryCollectives;

import java.lang.foreign.Arena;
import java.util.concurrent.TimeUnit;

/** Runs one body per rank on threads over {@link InMemoryCollectives}, each with its own parameters. */
final class DdpGroup {
    @FunctionalInterface
    interface Body {
        void run(int rank, GradientCollectives coll, FlatParams params) throws Exception;
    }

    private DdpGroup() {}

    static void run(int ranks, long[] sizes, Body body) {
        try (InMemoryCollectives group = new InMemoryCollectives(ranks, 20_000)) {
            RankRunner.run(ranks, TimeUnit.SECONDS.toNanos(30), rank -> {
                try (Arena arena = Arena.ofShared()) {
                    body.run(rank, group.member(rank), new FlatParams(arena, sizes));
                }
            });
        }
    }

    /** A gradient value that differs by rank, parameter and element, and is exact in float32. */
    static float g(int rank, int p, long i) {
        return (rank + 1) * 0.25f + p * 0.5f - (i % 7) * 0.125f;
    }

    /** The mean of {@link #g} over ranks. */
    static float mean(int ranks, int p, long i) {
        double s = 0;
        for (int r = 0; r < ranks; r++) s += g(r, p, i);
        return (float) (s / ranks);
    }
}
