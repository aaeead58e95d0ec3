package dev.jccl.plan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One kind of link as the planner models it: bandwidth in GB/s (10^9 bytes per second, one
 * direction; for the network, the host's NIC, shared by every flow that leaves the host), latency
 * of one message, and the CPU cost of posting and completing one chunk.
 */
public record LinkSpec(String name, double gbytesPerSec, long latencyNs, long chunkOverheadNs) {
    /** Presets, by the name the command line takes. */
    public static final Map<String, LinkSpec> PRESETS = presets();

    public LinkSpec {
        Objects.requireNonNull(name, "name");
        if (!(gbytesPerSec > 0) || Double.isInfinite(gbytesPerSec)) throw new IllegalArgumentException("link " + name + ": bandwidth must be > 0 GB/s");
        if (latencyNs < 0 || chunkOverheadNs < 0) throw new IllegalArgumentException("link " + name + ": latency and overhead must be >= 0");
    }

    private static Map<String, LinkSpec> presets() {
        Map<String, LinkSpec> m = new LinkedHashMap<>();
        // Within a host: NVLink 4 (H100, per GPU, one direction), PCIe 4.0 x16, shared memory copied by one core.
        m.put("nvlink", new LinkSpec("nvlink", 150, 3_000, 200));
        m.put("pcie", new LinkSpec("pcie", 24, 5_000, 200));
        m.put("shm", new LinkSpec("shm", 10, 2_000, 300));
        // Between hosts: per host NIC. RDMA latency about 2 us on InfiniBand, 4 us on RoCE; TCP over 10 GbE as the tuner's defaults.
        for (int gbit : new int[] {100, 200, 400}) {
            m.put("ib-" + gbit, new LinkSpec("ib-" + gbit, gbit / 8.0, 2_000, 200));
            m.put("roce-" + gbit, new LinkSpec("roce-" + gbit, gbit / 8.0, 4_000, 200));
        }
        m.put("tcp", new LinkSpec("tcp", 1.25, 30_000, 2_000));
        m.put("tcp-100", new LinkSpec("tcp-100", 12.5, 30_000, 2_000));
        return Collections.unmodifiableMap(m);
    }

    private static final Pattern CUSTOM = Pattern.compile("([0-9.]+)\\s*(GB/s|Gb/s|MB/s|Mb/s)\\s*[,@]\\s*([0-9.]+)\\s*(ns|us|ms)");

    /**
     * A preset name ({@code ib-200}) or a custom link {@code BANDWIDTH,LATENCY} such as
     * {@code 25GB/s,2us} or {@code 200Gb/s,5us} (B = bytes, b = bits).
     *
     * @throws IllegalArgumentException listing the presets and the custom form
     */
    public static LinkSpec parse(String text) {
        String t = text.trim();
        LinkSpec preset = PRESETS.get(t.toLowerCase(Locale.ROOT));
        if (preset != null) return preset;
        Matcher m = CUSTOM.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("unknown link '" + text + "': a preset (" + String.join(", ", PRESETS.keySet())
                    + ") or BANDWIDTH,LATENCY such as 25GB/s,2us or 200Gb/s,5us");
        }
        double v = Double.parseDouble(m.group(1));
        double gbps = switch (m.group(2)) {
            case "GB/s" -> v;
            case "Gb/s" -> v / 8;
            case "MB/s" -> v / 1e3;
            default -> v / 8e3;
        };
        double lat = Double.parseDouble(m.group(3));
        long ns = Math.round(switch (m.group(4)) {
            case "ns" -> lat;
            case "us" -> lat * 1e3;
            default -> lat * 1e6;
        });
        return new LinkSpec(t, gbps, ns, 200);
    }

    /** "ib-200 (25.0 GB/s, 2.0 us)". */
    public String describe() {
        return String.format(Locale.ROOT, "%s (%.1f GB/s, %.1f us)", name, gbytesPerSec, latencyNs / 1e3);
    }

    /** The same link at another bandwidth (for "what bandwidth would hide the sync"). */
    public LinkSpec withBandwidth(double gbps) {
        return new LinkSpec(name, gbps, latencyNs, chunkOverheadNs);
    }
}
