package dev.jccl.cli.train;

import dev.jccl.DataType;
import dev.jccl.util.Sizes;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The closing summary of {@code jccl demo}, as rank 0 prints it and the report shows it. */
record DemoSummary(ModelSpec spec, TrainSettings settings, String transport, Evaluation before, Evaluation after,
                   long[] checksums, List<DemoRank.Comparison> comparisons, StepStats stats) {

    boolean checksumsAgree() {
        for (long c : checksums) if (c != checksums[0]) return false;
        return true;
    }

    List<String> lines() {
        List<String> out = new ArrayList<>();
        StepStats s = stats;
        out.add(f("held-out loss      %.4f -> %.4f    accuracy %.1f%% -> %.1f%%   (%d samples never trained on)",
                before.loss(), after.loss(), 100 * before.accuracy(), 100 * after.accuracy(), Evaluation.SAMPLES));
        StringBuilder sums = new StringBuilder();
        for (int r = 0; r < checksums.length; r++) sums.append(f("  rank %d %08x", r, checksums[r]));
        out.add("parameter checksum (CRC-32C of all float32 bits):" + sums + (checksumsAgree() ? "  identical on every rank" : "  DIFFERENT"));
        StringBuilder diffs = new StringBuilder();
        for (DemoRank.Comparison c : comparisons) {
            diffs.append(f("%s after %d step%s %.3g", diffs.isEmpty() ? "" : ",", c.afterSteps(), c.afterSteps() == 1 ? "" : "s", c.maxDiff()));
        }
        out.add(f("vs single-process training on the same global batch of %d: max |parameter difference| over %,d parameters:%s",
                settings.globalBatch(), spec.model(1).parameterCount(), diffs));
        out.add(f("mean step time (steps %d-%d): %.2f ms = compute %.2f ms (forward %.2f, backward %.2f, optimizer %.2f)"
                        + " + exposed communication %.2f ms + other %.2f ms (data, bookkeeping)",
                settings.warmupSteps(), settings.steps() - 1, s.stepMs(), s.computeMs(), s.forwardMs(), s.backwardMs(), s.optimizerMs(),
                s.exposedMs(), Math.max(0, s.stepMs() - s.computeMs() - s.exposedMs())));
        out.add(f("communication: %.2f ms per step in flight, %.2f ms exposed, %.2f ms (%.0f%%) hidden under backward%s",
                s.commMs(), s.exposedMs(), s.hiddenMs(), 100 * s.hiddenShare(), settings.overlap() ? "" : " (overlap off)"));
        out.add(f("allreduce: %s per step in %d bucket(s), algbw %.2f GB/s, busbw %.2f GB/s over the time buckets were in flight, "
                        + "waiting for the slowest rank included (busbw = algbw x 2(n-1)/n, n = %d)",
                Sizes.formatBytes(s.bytesPerStep()), s.bucketsPerStep(), s.algBwBytesPerSec() / 1e9, s.busBwBytesPerSec() / 1e9, settings.ranks()));
        out.add(f("throughput: %,.0f samples/s", settings.globalBatch() / (s.stepMs() / 1e3)));
        if (settings.precision() == DataType.FLOAT16) out.add(f("loss scaling: %d step(s) skipped for overflow", s.skippedSteps()));
        out.add("data path: " + dataPath());
        return out;
    }

    void print(PrintStream out) {
        out.println("summary:");
        for (String l : lines()) out.println("  " + l);
    }

    /** What touches a gradient on its way, from this code's point of view and the provider's documented behaviour. */
    String dataPath() {
        String type = settings.precision().ncclName();
        String wire = switch (transport) {
            case "shm" -> "shm: RDMA_WRITE_WITH_IMM is one copy by the sender into the peer's mapped slot FIFO (/dev/shm)";
            case "tcp" -> "tcp: RDMA_WRITE_WITH_IMM framed onto a loopback socket, the peer's receiver thread places it in its slot FIFO"
                    + " (kernel socket copies)";
            case "ucx" -> "ucx: RDMA_WRITE_WITH_IMM as a put (or one active message when small) through libucp into the peer's slot FIFO,"
                    + " over the transport UCX picked (shared memory or cma on one host, tcp or RDMA verbs across hosts)";
            default -> transport + ": RDMA_WRITE_WITH_IMM through the provider into the peer's slot FIFO";
        };
        return "provider " + transport + "; per bucket: gradients packed into a native bucket buffer (1 copy"
                + (settings.precision() == DataType.FLOAT32 ? "" : ", narrowed to " + type) + "); " + wire
                + "; the receiver reduces each arriving chunk from its slot into the bucket (reduce-scatter phase) or copies it there"
                + " (all-gather phase); the average is unpacked into the float32 gradients (1 copy, x 1/"
                + settings.ranks() * settings.accumSteps() + ")";
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
