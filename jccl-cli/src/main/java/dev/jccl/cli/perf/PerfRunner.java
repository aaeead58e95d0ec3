package dev.jccl.cli.perf;

import dev.jccl.config.Config;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Runs a perf test on one of its two ranks. Rank 0 drives (sends, reads, starts each ping) and
 * prints; rank 1 is the target (and sends too in a bidirectional run).
 */
public final class PerfRunner {
    private static final int LATENCY_WARMUP_MESSAGES = 5000;
    private static final long LATENCY_WARMUP_BYTES = 256L << 20;
    private static final long BANDWIDTH_WARMUP_BYTES = 1L << 30;
    /**
     * A bandwidth run first rehearses once, untimed and unprinted: this many small messages after as
     * many to warm up. A size's own warm-up is capped by bytes (256 messages at 4 MiB); with only
     * that, the per-message path was still interpreted (tens of us a message) and both JVMs still
     * compiling on the two cores while 4 MiB was timed. ucx_perftest, native code, has no such phase.
     */
    private static final int REHEARSAL_MESSAGES = 5_000;
    private static final long REHEARSAL_SIZE = 64;

    private PerfRunner() {}

    public static void run(PerfOptions o, int rank, Config config, Exchange ex, PrintStream out) {
        VerbsProvider provider = Providers.require(o.provider());
        provider.unavailabilityCause(config).ifPresent(why -> {
            throw new IllegalStateException("provider " + o.provider() + " is unavailable: " + why);
        });
        int depth = Math.max(o.txDepth(), 64);
        try (PerfEndpoint ep = PerfEndpoint.connect(provider, config, o.qps(), depth, o.maxSize(), ex)) {
            boolean driver = rank == 0;
            if (driver) PerfReport.header(out, o, ep);
            if (o.test().latency) LatencyRun.preRecv(ep);
            else bandwidth(o, ep, "rehearsal", Math.min(REHEARSAL_SIZE, o.maxSize()), REHEARSAL_MESSAGES, driver, ex, null, depth);
            for (long size : o.sizes()) {
                if (o.test().latency) {
                    latency(o, ep, size, driver, ex, out);
                } else {
                    bandwidth(o, ep, Long.toString(size), size, o.iterationsFor(size), driver, ex, out, depth);
                }
            }
            ex.barrier("done");
        }
    }

    private static void latency(PerfOptions o, PerfEndpoint ep, long size, boolean driver, Exchange ex, PrintStream out) {
        ex.barrier("lat/" + size);
        int warmup = warmUpCount(o.iterations(), size, LATENCY_WARMUP_MESSAGES, LATENCY_WARMUP_BYTES);
        Histogram h = LatencyRun.run(ep, o.test().opcode, size, o.iterations(), warmup, driver);
        ex.barrier("lat-done/" + size);
        if (driver) PerfReport.latencyRow(out, size, o.iterations(), h);
    }

    /** One size ({@code name} tells its barriers apart): warm-up, timed run, and rank 0 prints, unless {@code out} is null. */
    private static void bandwidth(PerfOptions o, PerfEndpoint ep, String name, long size, int iters, boolean driver,
                                  Exchange ex, PrintStream out, int depth) {
        boolean sends = driver || o.bidirectional();
        boolean receivesSends = o.test().opcode == Opcode.SEND && (!driver || o.bidirectional());
        long recvTarget = receivesSends ? iters : 0;
        ex.barrier("bw/" + name);
        warmUp(o, ep, name, size, iters, driver, ex, depth);
        long[] toPost = BandwidthRun.recvShares(recvTarget, ep.qps.length);
        BandwidthRun.preRecv(ep, size, toPost, depth);
        ex.barrier("bw-go/" + name);
        BandwidthRun.Result mine = BandwidthRun.run(ep, o.test().opcode, size, sends ? iters : 0, recvTarget, toPost,
                o.txDepth());
        // Exchange what each side measured so rank 0 can print both directions of a -b run.
        byte[] theirs = ex.swap("bw-result/" + name, ByteBuffer.allocate(24).putDouble(mine.averageBps())
                .putDouble(mine.peakBps()).putDouble(mine.messagesPerSecond()).array());
        if (driver && out != null) {
            ByteBuffer b = ByteBuffer.wrap(theirs);
            double avg = mine.averageBps() + (o.bidirectional() ? b.getDouble() : 0);
            double peak = mine.peakBps() + (o.bidirectional() ? b.getDouble() : 0);
            double rate = mine.messagesPerSecond() + (o.bidirectional() ? b.getDouble() : 0);
            PerfReport.bandwidthRow(out, size, iters, peak, avg, rate);
        }
    }

    /**
     * Untimed messages first, so connection set-up and JIT compilation stay out of the figures. The
     * per-message path reaches its optimizing compiler only after some thousands of calls; before
     * that a small message costs several times more than in steady state.
     */
    private static void warmUp(PerfOptions o, PerfEndpoint ep, String name, long size, int iters, boolean driver,
                               Exchange ex, int depth) {
        long n = warmUpCount(iters, size, Integer.MAX_VALUE, BANDWIDTH_WARMUP_BYTES);
        boolean receivesSends = o.test().opcode == Opcode.SEND && (!driver || o.bidirectional());
        long recv = receivesSends ? n : 0;
        long[] toPost = BandwidthRun.recvShares(recv, ep.qps.length);
        BandwidthRun.preRecv(ep, size, toPost, depth);
        ex.barrier("warm/" + name);
        BandwidthRun.run(ep, o.test().opcode, size, driver || o.bidirectional() ? n : 0, recv, toPost, o.txDepth());
        ex.barrier("warm-done/" + name);
    }

    /** At most {@code iterations} and {@code maxMessages}, at most {@code maxBytes} worth, at least 10. */
    static int warmUpCount(int iterations, long size, int maxMessages, long maxBytes) {
        long byBytes = size == 0 ? Long.MAX_VALUE : maxBytes / size;
        return (int) Math.min(iterations, Math.max(10, Math.min(maxMessages, byBytes)));
    }

    static String mbps(double bps) {
        return String.format(Locale.ROOT, "%.2f", bps / 1e6);
    }
}
