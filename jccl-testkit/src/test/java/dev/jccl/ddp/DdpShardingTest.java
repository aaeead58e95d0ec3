package dev.jccl.ddp;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static dev.jccl.ddp.DdpGroup.g;
import static dev.jccl.ddp.DdpGroup.mean;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("unit")
class DdpShardingTest {
    static final long[] SIZES = {17, 250, 3, 129, 40};

    @Test
    void ownedRangesOfAllRanksCoverEveryElementOnceExceptTheReplicatedLastBucket() {
        int ranks = 3;
        ConcurrentHashMap<Integer, java.util.List<GradRange>> byRank = new ConcurrentHashMap<>();
        ConcurrentHashMap<Integer, BucketPlan> plans = new ConcurrentHashMap<>();
        DdpGroup.run(ranks, SIZES, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(400).sharding(Sharding.REDUCE_SCATTER).build()) {
                byRank.put(rank, ddp.ownedRanges());
                plans.put(rank, ddp.bucketPlan());
            }
        });
        BucketPlan plan = plans.get(0);
        java.util.Set<String> lastBucket = new java.util.HashSet<>();
        plan.last().slots().forEach(s -> lastBucket.add(s.name()));
        for (int p = 0; p < SIZES.length; p++) {
            int[] hits = new int[(int) SIZES[p]];
            for (var ranges : byRank.values()) {
                for (GradRange r : ranges) if (r.name().equals("p" + p)) for (long i = r.fromElem(); i < r.toElem(); i++) hits[(int) i]++;
            }
            int want = lastBucket.contains("p" + p) ? ranks : 1;
            for (int h : hits) assertEquals(want, h, "p" + p + " in\n" + plan);
        }
    }

    /** The same steps, replicated and sharded: parameters must agree on every rank. */
    @Test
    void shardedStepsMatchReplicatedSteps() {
        int ranks = 4;
        ConcurrentHashMap<String, float[]> finals = new ConcurrentHashMap<>();
        ConcurrentHashMap<String, Double> norms = new ConcurrentHashMap<>();
        for (Sharding sharding : Sharding.values()) {
            DdpGroup.run(ranks, SIZES, (rank, coll, fp) -> {
                for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setValue(p, i, p - i * 0.01f);
                try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(400).sharding(sharding).build()) {
                    for (int step = 0; step < 3; step++) {
                        for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setGrad(p, i, g(rank, p, i) * (step + 1));
                        fp.backward(ddp);
                        assertTrue(ddp.finish().shouldStep());
                        double norm = ddp.clipGradNorm(10.0);
                        norms.merge(sharding + "/" + step, norm, (a, b) -> {
                            assertEquals(a, b, "every rank's norm");
                            return a;
                        });
                        for (GradRange r : ddp.ownedRanges()) {
                            int p = Integer.parseInt(r.name().substring(1));
                            for (long i = r.fromElem(); i < r.toElem(); i++) fp.setValue(p, i, fp.value(p, i) - 0.1f * fp.grad(p, i));
                        }
                        ddp.syncParameters();
                        ddp.zeroGrad();
                    }
                    finals.put(sharding + "/" + rank, fp.valueCopy());
                }
            });
        }
        float[] ref = finals.get("REPLICATED/0");
        for (var e : finals.entrySet()) assertArrayEquals(ref, e.getValue(), 1e-5f, e.getKey());
        for (int step = 0; step < 3; step++) assertEquals(norms.get("REPLICATED/" + step), norms.get("REDUCE_SCATTER/" + step), 1e-4);
        assertTrue(ref[1] != 1f - 0.01f, "the steps changed the parameters");
    }

    @Test
    void shardedGradientOfOwnedElementsIsTheMean() {
        DdpGroup.run(2, SIZES, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(300).sharding(Sharding.REDUCE_SCATTER).build()) {
                for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setGrad(p, i, g(rank, p, i));
                fp.backward(ddp);
                ddp.finish();
                for (GradRange r : ddp.ownedRanges()) {
                    int p = Integer.parseInt(r.name().substring(1));
                    for (long i = r.fromElem(); i < r.toElem(); i++) assertEquals(mean(2, p, i), fp.grad(p, i), 1e-6f);
                }
            }
        });
    }
}
