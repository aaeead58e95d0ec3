package dev.jccl.ddp;

import dev.jccl.DataType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static dev.jccl.ddp.DdpGroup.g;
import static dev.jccl.ddp.DdpGroup.mean;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("unit")
class DdpClipAndScaleTest {
    static final long[] SIZES = {33, 5, 400, 2, 91};

    static double expectedNorm(int ranks) {
        double s = 0;
        for (int p = 0; p < SIZES.length; p++) for (long i = 0; i < SIZES[p]; i++) s += Math.pow(mean(ranks, p, i), 2);
        return Math.sqrt(s);
    }

    @ParameterizedTest
    @EnumSource(Sharding.class)
    void clippingUsesTheGlobalNormWhichEveryRankAgreesOn(Sharding sharding) {
        int ranks = 4;
        ConcurrentHashMap<Integer, Double> norms = new ConcurrentHashMap<>();
        double maxNorm = expectedNorm(ranks) / 4;
        DdpGroup.run(ranks, SIZES, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(200).sharding(sharding).build()) {
                for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setGrad(p, i, g(rank, p, i));
                fp.backward(ddp);
                assertTrue(ddp.finish().shouldStep());
                double norm = ddp.clipGradNorm(maxNorm);
                norms.put(rank, norm);
                assertEquals(norm, ddp.gradNorm(), "gradNorm stays the norm before clipping");
                assertThrows(IllegalStateException.class, () -> ddp.clipGradNorm(maxNorm));
                for (GradRange r : ddp.ownedRanges()) {
                    int p = Integer.parseInt(r.name().substring(1));
                    for (long i = r.fromElem(); i < r.toElem(); i++) {
                        assertEquals(mean(ranks, p, i) * maxNorm / expectedNorm(ranks), fp.grad(p, i), 1e-5, r + " at " + i);
                    }
                }
            }
        });
        assertEquals(ranks, norms.size());
        assertEquals(expectedNorm(ranks), norms.get(0), 1e-4);
        for (double n : norms.values()) assertEquals(Double.doubleToRawLongBits(norms.get(0)), Double.doubleToRawLongBits(n), "bit-identical norm");
    }

    @Test
    void clipByValueClampsEveryOwnedElement() {
        DdpGroup.run(2, SIZES, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).build()) {
                for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setGrad(p, i, g(rank, p, i));
                fp.backward(ddp);
                ddp.finish();
                ddp.clipGradValue(0.5f);
                for (int p = 0; p < fp.count(); p++) {
                    for (long i = 0; i < fp.elems(p); i++) assertEquals(Math.clamp(mean(2, p, i), -0.5f, 0.5f), fp.grad(p, i), 1e-6f);
                }
            }
        });
    }

    @ParameterizedTest
    @EnumSource(Sharding.class)
    void anInfiniteGradientOnOneRankSkipsTheStepEverywhereAndHalvesTheScale(Sharding sharding) {
        DdpGroup.run(4, SIZES, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(200).sharding(sharding)
                    .communicationType(DataType.FLOAT16).lossScaling(new LossScaler(1024f, 2f, 0.5f, 2)).build()) {
                for (int step = 0; step < 4; step++) {
                    float scale = ddp.lossScale();
                    for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setGrad(p, i, g(rank, p, i) * scale);
                    // Step 1: rank 2 alone sees an infinity in a parameter of the first (not the last) bucket.
                    if (step == 1 && rank == 2) fp.setGrad(4, 7, Float.POSITIVE_INFINITY);
                    fp.backward(ddp);
                    StepResult r = ddp.finish();
                    assertEquals(scale, r.lossScale());
                    assertEquals(step == 1, r.overflow(), "step " + step);
                    assertEquals(step == 1, r.skipped(), "step " + step);
                    float expectedNext = switch (step) { case 0 -> 1024f; case 1 -> 512f; case 2 -> 512f; default -> 1024f; };
                    assertEquals(expectedNext, ddp.lossScale(), "scale after step " + step);
                    if (r.skipped()) {
                        assertThrows(IllegalStateException.class, ddp::gradNorm);
                    } else {
                        for (GradRange range : ddp.ownedRanges()) {
                            int p = Integer.parseInt(range.name().substring(1));
                            assertEquals(mean(4, p, range.fromElem()), fp.grad(p, range.fromElem()), 2e-3f, "loss scale removed");
                        }
                    }
                    ddp.zeroGrad();
                }
            }
        });
    }

    @Test
    void halfSumThatOverflowsIsCaughtAfterTheReduction() {
        DdpGroup.run(4, new long[] {8}, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).communicationType(DataType.FLOAT16)
                    .lossScaling(new LossScaler(4f, 2f, 0.5f, 100)).build()) {
                // 4 x 30000 is finite on every rank but beyond float16's 65504 once summed.
                for (long i = 0; i < 8; i++) fp.setGrad(0, i, 30000f);
                fp.backward(ddp);
                StepResult r = ddp.finish();
                assertTrue(r.overflow() && r.skipped());
                assertEquals(2f, ddp.lossScale());
            }
        });
    }

    @ParameterizedTest
    @EnumSource(value = DataType.class, names = {"BFLOAT16", "FLOAT16"})
    void halfPrecisionCommunicationStaysCloseToFloat32(DataType type) {
        DdpGroup.run(4, SIZES, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(200).communicationType(type).build()) {
                for (int p = 0; p < fp.count(); p++) for (long i = 0; i < fp.elems(p); i++) fp.setGrad(p, i, g(rank, p, i) / 3);
                fp.backward(ddp);
                assertTrue(ddp.finish().shouldStep());
                for (int p = 0; p < fp.count(); p++) {
                    for (long i = 0; i < fp.elems(p); i++) {
                        float exact = mean(4, p, i) / 3;
                        // bfloat16 keeps 8 significant bits, float16 11: one rounding of each input and one of the sum.
                        float tol = (type == DataType.BFLOAT16 ? 2f / 256 : 2f / 2048) * Math.max(1f, Math.abs(exact)) * 2;
                        assertEquals(exact, fp.grad(p, i), tol, type + " p" + p + "[" + i + "]");
                    }
                }
            }
        });
    }
}
