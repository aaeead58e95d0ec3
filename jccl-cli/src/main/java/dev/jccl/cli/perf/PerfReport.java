package dev.jccl.cli.perf;

import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Locale;

/** Prints results in perftest's columns, so people can read them side by side with ib_write_bw. */
final class PerfReport {
    private static final String RULE = "-".repeat(95);

    private PerfReport() {}

    static void header(PrintStream out, PerfOptions o, PerfEndpoint ep) {
        out.println(RULE);
        out.printf(Locale.ROOT, "                    %s %s%n", o.test().opcode, o.test().latency ? "Latency Test" : "BW Test");
        out.printf(Locale.ROOT, " Provider        : %s (%s)%n", o.provider(), ep.context.device().name());
        out.printf(Locale.ROOT, " Connection type : RC         Number of qps   : %d%n", o.qps());
        out.printf(Locale.ROOT, " Dual-port       : OFF        Bidirectional   : %s%n", o.bidirectional() ? "ON" : "OFF");
        out.printf(Locale.ROOT, " TX depth        : %-10d Mtu             : %d%n", o.test().latency ? 1 : o.txDepth(),
                ep.context.device().ports().getFirst().mtu());
        out.printf(Locale.ROOT, " Data path       : %s%n", ep.qps[0].describe());
        out.println(RULE);
        if (o.test().latency) {
            out.println(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
                    + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]");
        } else {
            out.println(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]");
        }
    }

    static void bandwidthRow(PrintStream out, long size, long iters, double peakBps, double avgBps, double messagesPerSecond) {
        out.printf(Locale.ROOT, " %-10d %-13d %-18.2f %-20.2f %.6f%n", size, iters, peakBps / 1e6, avgBps / 1e6,
                messagesPerSecond / 1e6);
    }

    static void latencyRow(PrintStream out, long size, long iters, Histogram h) {
        out.printf(Locale.ROOT, " %-6d %-11d %-14.2f %-14.2f %-16.2f %-14.2f %-16.2f %-22.2f %.2f%n", size, iters,
                us(h.getMinValue()), us(h.getMaxValue()), us(h.getValueAtPercentile(50)), h.getMean() / 1e3,
                h.getStdDeviation() / 1e3, us(h.getValueAtPercentile(99)), us(h.getValueAtPercentile(99.9)));
    }

    private static double us(long ns) {
        return ns / 1e3;
    }
}
