package dev.jccl.cli.path;

import dev.jccl.cli.perf.coll.CollTest;
import dev.jccl.cli.tool.Chart;
import dev.jccl.cli.tool.Finding;
import dev.jccl.cli.tool.Links;
import dev.jccl.cli.tool.RankFacts;
import dev.jccl.cli.tool.Table;
import dev.jccl.cli.tool.ToolReport;
import dev.jccl.config.Knobs;
import dev.jccl.trace.DataPathCounters;
import dev.jccl.trace.DataPathCounters.Counter;
import dev.jccl.util.Sizes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The explanation {@code jccl path} prints: hops, counters, the comparison with the ideal path, and the diagram. */
final class PathExplain {
    private PathExplain() {}

    static ToolReport report(CollTest test, long bytes, boolean array, boolean shared, List<RankFacts> facts,
                             List<DataPathCounters.Snapshot> counters, String plan) {
        int n = facts.size();
        String provider = n < 2 ? "none" : Links.chosen(facts.get(0), facts.get(1)).orElse("none");
        String best = n < 2 ? "none" : Links.best(facts.get(0), facts.get(1)).orElse("none");
        boolean measured = !counters.isEmpty();
        DataPathCounters.Snapshot c0 = measured ? counters.getFirst() : null;
        ToolReport r = new ToolReport("path", String.format(Locale.ROOT, "%s of %s from a %s over %d ranks, provider %s%s", test.cliName(),
                Sizes.formatBytes(bytes), array ? "heap float[]" : shared ? "shared MemorySegment" : "native MemorySegment", n, provider,
                measured ? ", measured" : ""));
        String qps = facts.getFirst().knob(Knobs.QPS_PER_CONNECTION);
        Table hops = Table.of("hops (measured: rank 0, during one call)", List.of("#", "hop", "copies and who touches the data", "measured"));
        int h = 1;
        hops = hops.row(h++, "source", array ? "heap float[]: the provider cannot read the Java heap" : shared
                ? "shared segment (Communicator.allocate): peers on this host may read it in place" : "native segment: registered, read in place", "-");
        if (array) {
            hops = hops.row(h++, "staging in", "CPU copies the array into a pooled registered buffer (+1 copy)",
                    m(c0, Counter.STAGED_BYTES, 2));
        }
        hops = hops.row(h++, "algorithm", plan.isEmpty() ? "chosen by the tuner at the first call (--measure shows it)" : plan,
                measured ? sent(c0) : "-");
        hops = hops.row(h++, "provider " + provider, switch (provider) {
            case "shm" -> shared ? "direct reads: the sender leaves each chunk in its shared buffer and the peer reduces or copies it from"
                    + " there (JCCL_DIRECT): 0 copies into FIFOs" : "sender copies each chunk into the peer's FIFO slot: 1 user-space copy per hop, no syscall;"
                    + " or, where it measures faster (JCCL_CMA), the peer copies it out by address with process_vm_readv: 1 kernel copy";
            case "tcp" -> "socket write and read: the kernel copies each byte twice per hop (" + qps + " socket(s) per queue pair)";
            case "none" -> "one rank: nothing leaves this process";
            default -> "copies as the provider does them";
        }, measured ? providerFigures(c0) : "-");
        hops = hops.row(h++, "receive", test.reduces() ? "the reduction kernel reads the arrived chunk in the FIFO and the local operand, writes the output"
                : "the runtime copies each arrived chunk from the FIFO into the output", measured
                ? "reduced " + Sizes.formatBytes(c0.get(Counter.REDUCED_BYTES)) + ", copied " + Sizes.formatBytes(c0.get(Counter.RUNTIME_COPY_BYTES)) : "-");
        if (array) hops = hops.row(h++, "staging out", "CPU copies the result back into the array (+1 copy)", "(in the staged figure)");
        hops = hops.row(h, "destination", array ? "heap float[]" : "native segment", "-");
        r.add(hops);
        if (measured) r.add(countersTable(counters));
        compare(r, array, provider, best, c0, bytes);
        if (c0 != null) r.add(directReads(array, shared, provider, c0));
        r.add(diagram(array, shared, provider, c0));
        r.json(w -> {
            w.name("collective").value(test.cliName()).name("bytes").value(bytes).name("buffer").value(array ? "array" : "native")
                    .name("provider").value(provider).name("plan").value(plan).name("counters").beginArray();
            for (DataPathCounters.Snapshot s : counters) {
                w.beginObject();
                for (Counter c : Counter.values()) w.name(c.name().toLowerCase(Locale.ROOT)).value(s.get(c));
                w.endObject();
            }
            w.endArray();
        });
        return r;
    }

    private static void compare(ToolReport r, boolean array, String provider, String best, DataPathCounters.Snapshot c0, long bytes) {
        if (array) {
            r.add(Finding.warn("source memory", "heap array staged through registered memory: 2 extra copies per call"
                    + (c0 == null ? "" : " (" + Sizes.formatBytes(c0.get(Counter.STAGED_BYTES)) + " staged for " + Sizes.formatBytes(bytes) + ")"),
                    "pass a MemorySegment (Arena.ofShared().allocate) instead of an array"));
        } else {
            r.add(Finding.ok("source memory", "native segment: read and written in place, no staging"));
        }
        if (provider.equals("tcp") && best.equals("shm")) {
            r.add(Finding.warn("provider", "tcp: 2 kernel copies per hop"
                    + (c0 == null ? "" : " (" + Sizes.formatBytes(c0.get(Counter.SOCKET_BYTES_WRITTEN) + c0.get(Counter.SOCKET_BYTES_READ))
                    + " through sockets, " + c0.get(Counter.SYSCALLS) + " syscalls)") + "; shm on this host would do 1 user-space copy,"
                    + " an RDMA provider 0", "unset JCCL_TRANSPORT or put shm first (JCCL_TRANSPORT=shm,tcp)"));
        } else if (provider.equals("tcp")) {
            r.add(Finding.ok("provider", "tcp across hosts: 2 kernel copies per hop; an RDMA provider would do 0 (none available here)"));
        } else {
            r.add(Finding.ok("provider", provider + (provider.equals("shm") ? ": 1 copy per hop, the ideal for ranks on one host" : "")));
        }
    }

    /** The copies direct reads saved, or how to get them. */
    private static Finding directReads(boolean array, boolean shared, String provider, DataPathCounters.Snapshot c) {
        long direct = c.get(Counter.DIRECT_READ_BYTES);
        long fused = c.get(Counter.FUSED_BYTES);
        if (fused > 0 && direct == 0) {
            return Finding.ok("direct reads", "none, but receives stored " + Sizes.formatBytes(fused) + " straight into the next rank's FIFO slots"
                    + " while reducing or copying: that many bytes of send copies saved");
        }
        if (direct > 0 && !shared) {
            return Finding.ok("direct reads", "peers read " + Sizes.formatBytes(direct) + " of the private buffers by address (process_vm_readv,"
                    + " JCCL_CMA): that many bytes of copies into FIFOs saved, for one kernel copy each");
        }
        if (direct > 0) {
            return Finding.ok("direct reads", "peers read " + Sizes.formatBytes(direct) + " in place: that many bytes of copies into FIFOs saved"
                    + " (" + Sizes.formatBytes(c.get(Counter.PROVIDER_COPY_BYTES)) + " still copied by the provider)");
        }
        if (shared || array || !provider.equals("shm")) {
            return Finding.ok("direct reads", "none: " + (shared ? "JCCL_DIRECT=0, or no send could go direct" : "the buffers are not shared memory"));
        }
        return Finding.warn("direct reads", "none: the buffers are private, so every chunk is copied into the peer's FIFO first",
                "allocate buffers with Communicator.allocate (--buffer shared) so peers on this host read them in place");
    }

    private static Table countersTable(List<DataPathCounters.Snapshot> counters) {
        List<String> cols = new ArrayList<>(List.of("counter"));
        for (int i = 0; i < counters.size(); i++) cols.add("rank " + i);
        cols.add("meaning");
        Table t = Table.of("data-path counters during the call", cols);
        for (Counter c : Counter.values()) {
            List<String> row = new ArrayList<>(List.of(c.name().toLowerCase(Locale.ROOT)));
            for (DataPathCounters.Snapshot s : counters) row.add(Long.toString(s.get(c)));
            row.add(c.meaning());
            t = t.row(row.toArray());
        }
        return t;
    }

    private static Chart diagram(boolean array, boolean shared, String provider, DataPathCounters.Snapshot c0) {
        List<String> names = new ArrayList<>();
        List<String> details = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        names.add("source");
        details.add(array ? "heap float[]" : shared ? "shared segment" : "native segment");
        if (array) {
            names.add("staging");
            details.add("registered buffer");
            labels.add("copy in" + (c0 == null ? "" : " " + Sizes.formatBytes(c0.get(Counter.STAGED_BYTES) / 2)));
        }
        names.add(provider.equals("tcp") ? "socket" : "peer FIFO");
        details.add(provider.equals("tcp") ? "kernel buffers" : "shared memory slot");
        String copied = c0 == null ? "" : " " + Sizes.formatBytes(c0.get(Counter.PROVIDER_COPY_BYTES));
        long readInPlace = c0 == null ? 0 : c0.get(Counter.DIRECT_READ_BYTES);
        String direct = readInPlace == 0 ? "" : ", " + Sizes.formatBytes(readInPlace) + " read in place";
        labels.add(provider.equals("tcp") ? "write: kernel copy" : (shared ? "descriptors" : "provider copy" + copied) + direct);
        if (provider.equals("tcp")) {
            names.add("peer FIFO");
            details.add("receive slot");
            labels.add("read: kernel copy" + (c0 == null ? "" : " " + Sizes.formatBytes(c0.get(Counter.SOCKET_BYTES_READ))));
        }
        names.add("output");
        details.add(array ? "staging output" : "native segment");
        labels.add("reduce / copy" + (c0 == null ? "" : " " + Sizes.formatBytes(c0.get(Counter.REDUCED_BYTES) + c0.get(Counter.RUNTIME_COPY_BYTES))));
        if (array) {
            names.add("destination");
            details.add("heap float[]");
            labels.add("copy out");
        }
        List<Chart.Node> nodes = new ArrayList<>();
        List<Chart.Edge> edges = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            nodes.add(new Chart.Node(names.get(i), details.get(i), 100 + 180 * i, 150 + (i % 2) * 60));
            if (i > 0) edges.add(new Chart.Edge(names.get(i - 1), names.get(i), labels.get(i - 1)));
        }
        return Chart.graph("data path", "one hop of the collective, from this rank's source to the peer's output; edges are the copies", nodes, edges);
    }

    private static String m(DataPathCounters.Snapshot c, Counter k, int parts) {
        if (c == null) return "-";
        return Sizes.formatBytes(c.get(k)) + (parts > 1 ? " (in and out)" : "");
    }

    private static String sent(DataPathCounters.Snapshot c) {
        long chunks = c.get(Counter.CHUNKS_SENT);
        return String.format(Locale.ROOT, "sent %s in %d chunks (%s each)", Sizes.formatBytes(c.get(Counter.SENT_BYTES)), chunks,
                chunks == 0 ? "-" : Sizes.formatBytes(c.get(Counter.SENT_BYTES) / chunks));
    }

    private static String providerFigures(DataPathCounters.Snapshot c) {
        long chunks = Math.max(1, c.get(Counter.CHUNKS_SENT));
        return String.format(Locale.ROOT, "user copies %s; sockets %s out, %s in; %d frames out, %d in; %d syscalls (%.1f per chunk)",
                Sizes.formatBytes(c.get(Counter.PROVIDER_COPY_BYTES)), Sizes.formatBytes(c.get(Counter.SOCKET_BYTES_WRITTEN)),
                Sizes.formatBytes(c.get(Counter.SOCKET_BYTES_READ)), c.get(Counter.FRAMES_SENT), c.get(Counter.FRAMES_RECEIVED),
                c.get(Counter.SYSCALLS), c.get(Counter.SYSCALLS) / (double) chunks);
    }
}
