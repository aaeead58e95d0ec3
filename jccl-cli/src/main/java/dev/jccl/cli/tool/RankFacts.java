package dev.jccl.cli.tool;

import dev.jccl.Jccl;
import dev.jccl.config.Config;
import dev.jccl.config.Knob;
import dev.jccl.config.Knobs;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one rank knows about itself, swapped between ranks as text lines ({@code key=value}) so
 * that rank 0 can compare them: host, process, jccl version and knobs, each provider's locality
 * and device, the tcp interface, NUMA placement, limits and /dev/shm. Doctor and topo read it.
 */
public record RankFacts(int rank, Map<String, String> facts) {
    public static final String VERSION = "0.1.0";
    /** Knobs that are per rank by design, left out of the consistency check. */
    static final List<String> PER_RANK_KNOBS = List.of("JCCL_DEBUG_FILE", "JCCL_AUTH_TOKEN", "JCCL_TRACE");

    public String get(String key) {
        return facts.getOrDefault(key, "");
    }

    /** The providers this rank could use, with their localities: {@code provider.<name>=<locality>}. */
    public Map<String, String> providers() {
        Map<String, String> out = new LinkedHashMap<>();
        facts.forEach((k, v) -> {
            if (k.startsWith("provider.")) out.put(k.substring("provider.".length()), v);
        });
        return out;
    }

    /** This rank's knob values: {@code knob.<NAME>=<text>}. */
    public Map<String, String> knobs() {
        Map<String, String> out = new LinkedHashMap<>();
        facts.forEach((k, v) -> {
            if (k.startsWith("knob.")) out.put(k.substring("knob.".length()), v);
        });
        return out;
    }

    /** This rank's text for {@code knob}, or the knob's default where the facts do not carry it. */
    public String knob(Knob<?> knob) {
        return knobs().getOrDefault(knob.name(), knob.defaultText());
    }

    /**
     * This rank's facts, read with the knobs its communicators run with: in a job whose store is on
     * another host the tcp interface is the one that routes to the store, not loopback.
     */
    public static RankFacts collect(int rank, int localRanks, String storeHost) {
        Config config = Jccl.networkConfig(Config.fromEnvironment(), storeHost);
        Map<String, String> f = new LinkedHashMap<>();
        f.put("version", VERSION);
        f.put("host", hostName());
        String hostId = config.get(Knobs.HOST_ID);
        f.put("hostId", hostId.isBlank() ? hostName() : hostId.trim());
        f.put("hostAddress", hostAddress());
        f.put("pid", Long.toString(ProcessHandle.current().pid()));
        f.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        f.put("localRanks", Integer.toString(localRanks));
        for (Config.Entry e : config.entries()) {
            if (!PER_RANK_KNOBS.contains(e.knob().name())) f.put("knob." + e.knob().name(), e.text());
        }
        f.put("allowed", String.join(",", Providers.allowed(config).stream().map(VerbsProvider::name).toList()));
        for (VerbsProvider p : Providers.all()) {
            var why = p.unavailabilityCause(config);
            if (why.isPresent()) {
                f.put("unavailable." + p.name(), why.get());
                continue;
            }
            f.put("provider." + p.name(), p.locality(config));
            try {
                List<Device> ds = p.devices(config);
                if (!ds.isEmpty() && !ds.getFirst().ports().isEmpty()) {
                    f.put("device." + p.name(), ds.getFirst().name());
                    f.put("address." + p.name(), ds.getFirst().ports().getFirst().address());
                    f.put("mtu." + p.name(), Integer.toString(ds.getFirst().ports().getFirst().mtu()));
                }
            } catch (RuntimeException e) {
                f.put("deviceError." + p.name(), String.valueOf(e.getMessage()));
            }
        }
        Numa.describeSelf(f);
        f.put("limit.openFiles", Limits.read("Max open files"));
        f.put("limit.lockedMemory", Limits.read("Max locked memory"));
        try {
            f.put("shmFree", Long.toString(Files.getFileStore(Path.of(config.get(Knobs.SHM_DIR))).getUsableSpace()));
        } catch (Exception e) {
            f.put("shmFree", "-1");
        }
        return new RankFacts(rank, f);
    }

    public String encode() {
        StringBuilder b = new StringBuilder();
        facts.forEach((k, v) -> b.append(k).append('=').append(v.replace('\n', ' ')).append('\n'));
        return b.toString();
    }

    public static RankFacts decode(int rank, String text) {
        Map<String, String> f = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) f.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return new RankFacts(rank, f);
    }

    /** Collects this rank's facts and returns every rank's, indexed by rank. */
    public static List<RankFacts> gather(ToolJob job, String tag, int localRanks) {
        List<String> all = job.gather(tag, collect(job.rank(), localRanks, job.storeHost()).encode());
        return java.util.stream.IntStream.range(0, all.size()).mapToObj(r -> decode(r, all.get(r))).toList();
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }

    private static String hostAddress() {
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (Exception e) {
            return "";
        }
    }
}
