package dev.jccl.plan;

import java.util.Locale;

import dev.jccl.algo.HostTopology;

/**
 * The simulator's links: FIFO queues with a bandwidth and a latency. A chunk within a host leaves
 * through its rank's outgoing port and enters through the peer's incoming port; between hosts it
 * leaves through the sending host's NIC and enters through the receiving host's, queues that every
 * flow of those hosts shares. Booking happens when the chunk is posted; the receiving queue is
 * booked from the moment the first byte can arrive (cut-through), so an uncontended chunk takes
 * latency + bytes / bandwidth. Times in ns; bandwidths in GB/s = bytes/ns.
 */
final class SimNetwork {
    private final HostTopology t;
    private final LinkSpec intra;
    private final LinkSpec inter;
    private final double reduceNsPerByte;
    private final double[] portOut;
    private final double[] portIn;
    private final double[] reducer;
    private final double[] nicOut;
    private final double[] nicIn;
    private final double[] busyPortOut;
    private final double[] busyNicOut;
    private final double[] busyNicIn;
    private final double[] busyReducer;

    /** With {@code channels} channels, one simulated channel gets 1/channels of every bandwidth. */
    private final int channels;

    private final Symmetry sym;

    SimNetwork(PlanRequest req, HostTopology t, int channels, Symmetry sym) {
        this.t = t;
        this.channels = channels;
        this.sym = sym;
        this.intra = req.intra();
        this.inter = req.inter();
        this.reduceNsPerByte = 1 / req.reduceGBps();
        int n = t.nranks();
        portOut = new double[n];
        portIn = new double[n];
        reducer = new double[n];
        busyPortOut = new double[n];
        busyReducer = new double[n];
        nicOut = new double[t.hosts()];
        nicIn = new double[t.hosts()];
        busyNicOut = new double[t.hosts()];
        busyNicIn = new double[t.hosts()];
    }

    /** One message's latency from {@code from} to {@code to}: what a slot credit takes to travel back, too. */
    double latencyNs(int from, int to) {
        return (t.sameHost(from, to) ? intra : inter).latencyNs();
    }

    /** Posts {@code bytes} from {@code from} to {@code to} at {@code now}: {local completion, delivery}. */
    double[] transfer(double now, int from, int to, long bytes) {
        boolean local = t.sameHost(from, to);
        LinkSpec l = local ? intra : inter;
        double wire = bytes * channels / l.gbytesPerSec();
        double[] out = local ? portOut : nicOut;
        double[] in = local ? portIn : nicIn;
        // With a symmetry, every host's queues are in host 0's state: its ranks' and NIC's stand for all.
        int src = local ? sym.representative(from, t) : sym.hostQueue(t.hostOf(from));
        int dst = local ? sym.representative(to, t) : sym.hostQueue(t.hostOf(to));
        double start = Math.max(now + l.chunkOverheadNs(), out[src]);
        out[src] = start + wire;
        double enter = Math.max(start + l.latencyNs(), in[dst]);
        in[dst] = enter + wire;
        if (local) {
            busyPortOut[src] += wire;
        } else {
            busyNicOut[src] += wire;
            busyNicIn[dst] += wire;
        }
        return new double[] {start + wire, enter + wire};
    }

    /** Reduces {@code bytes} on {@code rank} from {@code now}: when it is done. */
    double reduce(double now, int rank, long bytes) {
        double work = bytes * channels * reduceNsPerByte;
        double start = Math.max(now, reducer[rank]);
        reducer[rank] = start + work;
        busyReducer[rank] += work;
        return start + work;
    }

    /** The busiest queue over a run of {@code endNs}: "host NIC out 97% busy". */
    String bottleneck(double endNs) {
        String[] names = {"intra-host port out", "host NIC out", "host NIC in", "reducer"};
        double[] busiest = {max(busyPortOut), max(busyNicOut), max(busyNicIn), max(busyReducer)};
        int k = 0;
        for (int i = 1; i < busiest.length; i++) if (busiest[i] > busiest[k]) k = i;
        return String.format(Locale.ROOT, "%s %.0f%% busy", names[k], endNs <= 0 ? 0 : 100 * busiest[k] / endNs);
    }

    private static double max(double[] a) {
        double m = 0;
        for (double v : a) m = Math.max(m, v);
        return m;
    }
}
