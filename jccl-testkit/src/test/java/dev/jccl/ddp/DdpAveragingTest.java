package dev.jccl.ddp;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;

import static dev.jccl.ddp.DdpGroup.g;
import static dev.jccl.ddp.DdpGroup.mean;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("unit")
class DdpAveragingTest {
    static final long[] SIZES = {10, 7, 1000, 3, 64};

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void gradientsAreAveragedOverRanksInEveryBucket(int ranks) {
        DdpGroup.run(ranks, SIZES, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(256).build()) {
                assertTrue(ddp.bucketPlan().buckets().size() >= 3, ddp.bucketPlan().toString());
                for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setGrad(p, i, g(rank, p, i));
                fp.backward(ddp);
                StepResult r = ddp.finish();
                assertTrue(r.synced() && r.shouldStep() && !r.overflow());
                assertEquals(1, r.microSteps());
                for (int p = 0; p < fp.count(); p++) {
                    for (long i = 0; i < fp.elems(p); i++) assertEquals(mean(ranks, p, i), fp.grad(p, i), 1e-6f, "p" + p + "[" + i + "]");
                }
            }
        });
    }

    @Test
    void rankZeroParametersReachEveryRankAtStart() {
        DdpGroup.run(4, SIZES, (rank, coll, fp) -> {
            for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setValue(p, i, rank * 100 + p + i * 0.5f);
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(100).build()) {
                for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) assertEquals(p + i * 0.5f, fp.value(p, i));
            }
        });
    }

    @Test
    void aParameterWithoutGradientIsNamedOrAllowed() {
        DdpGroup.run(2, SIZES, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).build()) {
                for (int p = fp.count() - 1; p >= 0; p--) if (p != 3) ddp.gradReady("p" + p);
                IllegalStateException e = assertThrows(IllegalStateException.class, ddp::finish);
                assertTrue(e.getMessage().contains("p3") && !e.getMessage().contains("p2"), e.getMessage());
                assertThrows(IllegalStateException.class, () -> ddp.gradReady("p0"), "unusable after the error");
            }
        });
        DdpGroup.run(2, SIZES, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).allowUnusedParameters(true).build()) {
                for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setGrad(p, i, g(rank, p, i));
                for (int p = fp.count() - 1; p >= 0; p--) if (p != 3) ddp.gradReady("p" + p);
                assertTrue(ddp.finish().synced());
                assertEquals(mean(2, 3, 1), fp.grad(3, 1), 1e-6f, "an unused parameter contributes its buffer as it is");
            }
        });
    }

    @Test
    void misuseIsRefusedWithTheValues() {
        DdpGroup.run(1, SIZES, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).build()) {
                var e = assertThrows(IllegalArgumentException.class, () -> ddp.gradReady("nope"));
                assertTrue(e.getMessage().contains("nope"));
                ddp.gradReady("p4");
                var twice = assertThrows(IllegalStateException.class, () -> ddp.gradReady("p4"));
                assertTrue(twice.getMessage().contains("p4"));
            }
            var opts = DistributedDataParallel.builder(coll).param("a", fp.values.get(0), fp.grads.get(0));
            assertThrows(IllegalArgumentException.class, () -> opts.param("a", fp.values.get(1), fp.grads.get(1)));
            assertThrows(IllegalArgumentException.class, () -> opts.param("b", fp.values.get(0), fp.grads.get(1)));
            assertThrows(IllegalArgumentException.class, () -> opts.communicationType(dev.jccl.DataType.INT32));
            assertThrows(IllegalArgumentException.class, () -> opts.bucketBytes(0));
            assertThrows(IllegalArgumentException.class, () -> opts.accumulationSteps(0));
        });
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void accumulatedMicroStepsEqualOneLargeBatch(boolean manualNoSync) {
        int ranks = 2;
        int k = 3;
        DdpGroup.run(ranks, SIZES, (rank, coll, fp) -> {
            var opts = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(512);
            if (!manualNoSync) opts.accumulationSteps(k);
            try (var ddp = opts.build()) {
                for (int m = 0; m < k; m++) {
                    for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.addGrad(p, i, g(rank, p, i) * (m + 1));
                    StepResult r;
                    if (manualNoSync && m < k - 1) {
                        try (var scope = ddp.noSync()) {
                            fp.backward(ddp);
                            r = ddp.finish();
                        }
                    } else {
                        fp.backward(ddp);
                        r = ddp.finish();
                    }
                    assertEquals(m == k - 1, r.synced(), "micro-step " + m);
                    assertEquals(m + 1, r.microSteps());
                }
                // Sum over micro-steps of g*(m+1) is 6g; averaged over ranks and 3 micro-steps: 2 * mean.
                for (int p = 0; p < fp.count(); p++) {
                    for (long i = 0; i < fp.elems(p); i++) assertEquals(2 * mean(ranks, p, i), fp.grad(p, i), 1e-5f);
                }
            }
        });
    }

    @Test
    void sameInputsGiveTheSameBitsRunAfterRun() {
        float[][] first = new float[2][];
        for (int run = 0; run < 2; run++) {
            int which = run;
            DdpGroup.run(4, SIZES, (rank, coll, fp) -> {
                try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(300)
                        .communicationType(dev.jccl.DataType.BFLOAT16).build()) {
                    for (int step = 0; step < 3; step++) {
                        for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setGrad(p, i, g(rank, p, i) / (step + 3));
                        fp.backward(ddp);
                        assertTrue(ddp.finish().synced());
                    }
                    if (rank == 0) first[which] = fp.gradCopy();
                }
            });
        }
        assertFalse(first[0] == null || first[1] == null);
        assertTrue(java.util.Arrays.equals(first[0], first[1]));
    }
}
