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
            for (long size : o.sizes()) {
                if (o.test().latency) {
                    latency(o, ep, size, driver, ex, out);
                } else {
                    bandwidth(o, ep, size, driver, ex, out, depth);
                }
            }
            ex.barrier("done");
        }
    }

    private static void latency(PerfOptions o, PerfEndpoint ep, long size, boolean driver, Exchange ex, PrintStream out) {
        ex.barrier("lat/" + size);
        int warmup = Math.min(1000, Math.max(10, o.iterations() / 10));
        Histogram h = LatencyRun.run(ep, o.test().opcode, size, o.iterations(), warmup, driver);
        ex.barrier("lat-done/" + size);
        if (driver) PerfReport.latencyRow(out, size, o.iterations(), h);
    }

    private static void bandwidth(PerfOptions o, PerfEndpoint ep, long size, boolean driver, Exchange ex,
                                  PrintStream out, int depth) {
        int iters = o.iterationsFor(size);
        boolean sends = driver || o.bidirectional();
        boolean receivesSends = o.test().opcode == Opcode.SEND && (!driver || o.bidirectional());
        long recvTarget = receivesSends ? iters : 0;
        ex.barrier("bw/" + size);
        warmUp(o, ep, size, driver, ex, depth);
        long[] toPost = BandwidthRun.recvShares(recvTarget, ep.qps.length);
        BandwidthRun.preRecv(ep, size, toPost, depth);
        ex.barrier("bw-go/" + size);
        BandwidthRun.Result mine = BandwidthRun.run(ep, o.test().opcode, size, sends ? iters : 0, recvTarget, toPost,
                o.txDepth());
        // Exchange what each side measured so rank 0 can print both directions of a -b run.
        byte[] theirs = ex.swap("bw-result/" + size, ByteBuffer.allocate(24).putDouble(mine.averageBps())
                .putDouble(mine.peakBps()).putDouble(mine.messagesPerSecond()).array());
        if (driver) {
            ByteBuffer b = ByteBuffer.wrap(theirs);
            double avg = mine.averageBps() + (o.bidirectional() ? b.getDouble() : 0);
            double peak = mine.peakBps() + (o.bidirectional() ? b.getDouble() : 0);
            double rate = mine.messagesPerSecond() + (o.bidirectional() ? b.getDouble() : 0);
            PerfReport.bandwidthRow(out, size, iters, peak, avg, rate);
        }
    }

    /** A few untimed messages first, so connection set-up and JIT warm-up stay out of the figures. */
    private static void warmUp(PerfOptions o, PerfEndpoint ep, long size, boolean driver, Exchange ex, int depth) {
        long n = Math.min(16, o.iterationsFor(size));
        boolean receivesSends = o.test().opcode == Opcode.SEND && (!driver || o.bidirectional());
        long recv = receivesSends ? n : 0;
        long[] toPost = BandwidthRun.recvShares(recv, ep.qps.length);
        BandwidthRun.preRecv(ep, size, toPost, depth);
        ex.barrier("warm/" + size);
        BandwidthRun.run(ep, o.test().opcode, size, driver || o.bidirectional() ? n : 0, recv, toPost, o.txDepth());
        ex.barrier("warm-done/" + size);
    }

    static String mbps(double bps) {
        return String.format(Locale.ROOT, "%.2f", bps / 1e6);
    }
}
