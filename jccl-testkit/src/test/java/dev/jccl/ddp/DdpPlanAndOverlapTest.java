package dev.jccl.ddp;

import dev.jccl.DataType;
import dev.jccl.trace.Timeline;
import dev.jccl.trace.TraceEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("unit")
class DdpPlanAndOverlapTest {
    @Test
    void bucketsFillInReverseRegistrationOrderUpToTheLimit() {
        DdpGroup.run(2, new long[] {100, 20, 30, 300, 10}, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(200).build()) {
                BucketPlan plan = ddp.bucketPlan();
                // 4 bytes each: p4 (40) + p3 (1200) would pass 200, so p4 alone; p3 alone (too big);
                // p2 (120) + p1 (80) = 200 fits; p0 (400) alone and last, with the flag element.
                List<List<String>> names = plan.buckets().stream().map(b -> b.slots().stream().map(BucketPlan.Slot::name).toList()).toList();
                assertEquals(List.of(List.of("p4"), List.of("p3"), List.of("p2", "p1"), List.of("p0")), names);
                assertEquals(1, plan.last().tailElems());
                assertEquals(101, plan.last().paddedElems());
                String printed = plan.toString();
                assertTrue(printed.contains("4 bucket(s)") && printed.contains("p2[30], p1[20]"), printed);
            }
        });
    }

    @Test
    void defaultBucketIs25MiBAndHalfTypesHalveTheBytes() {
        DdpGroup.run(1, new long[] {4 << 20, 4 << 20, 4 << 20}, (rank, coll, fp) -> {
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).build()) {
                // 16 MiB each in float32: 16 + 16 > 25, so one per bucket.
                assertEquals(3, ddp.bucketPlan().buckets().size());
                assertEquals(25L << 20, DdpOptions.DEFAULT_BUCKET_BYTES);
            }
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).communicationType(DataType.BFLOAT16).build()) {
                // 8 MiB each in bfloat16: three fit in 25 MiB.
                assertEquals(1, ddp.bucketPlan().buckets().size());
            }
        });
    }

    @Test
    void theFirstBucketLeavesBeforeBackwardEnds() {
        DdpGroup.run(2, new long[] {2000, 2000, 2000, 2000}, (rank, coll, fp) -> {
            Timeline timeline = Timeline.forRank(rank);
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(8000).timeline(timeline).build()) {
                long start = Timeline.nowNs();
                for (int p = fp.count() - 1; p >= 0; p--) {
                    for (long i = 0; i < fp.elems(p); i++) fp.setGrad(p, i, (float) Math.sin(i + p));
                    ddp.gradReady("p" + p);
                }
                long end = Timeline.nowNs();
                timeline.complete("backward", "backward", start, end);
                StepResult r = ddp.finish();
                List<TraceEvent> ev = timeline.events();
                TraceEvent backward = ev.stream().filter(e -> e.track().equals("backward")).findFirst().orElseThrow();
                TraceEvent first = ev.stream().filter(e -> e.track().equals("allreduce bucket 0")).findFirst().orElseThrow();
                TraceEvent last = ev.stream().filter(e -> e.track().equals("allreduce bucket 3")).findFirst().orElseThrow();
                assertTrue(first.startNs() < backward.endNs(), "bucket 0 launched during backward");
                assertTrue(last.startNs() >= first.startNs());
                assertEquals(4, r.timing().buckets());
                assertEquals(r.timing().commNs(), r.timing().exposedNs() + r.timing().hiddenNs());
            }
        });
    }

    @Test
    void withoutOverlapEveryBucketLeavesAfterBackward() {
        DdpGroup.run(2, new long[] {2000, 2000, 2000}, (rank, coll, fp) -> {
            Timeline timeline = Timeline.forRank(rank);
            try (var ddp = fp.register(DistributedDataParallel.builder(coll)).bucketBytes(8000).overlap(false).timeline(timeline).build()) {
                fp.backward(ddp);
                long end = Timeline.toEpochNs(Timeline.nowNs());
                StepResult r = ddp.finish();
                assertFalse(timeline.events().isEmpty());
                for (TraceEvent e : timeline.events()) assertTrue(e.startNs() >= end, e.toString());
                assertEquals(0, r.timing().hiddenNs());
            }
        });
    }
}
