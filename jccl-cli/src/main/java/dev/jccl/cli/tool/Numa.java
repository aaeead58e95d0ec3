package dev.jccl.cli.tool;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Where this process sits as /sys and /proc show it: the CPUs it may run on, the memory nodes it
 * may allocate from, and the NUMA nodes of those CPUs. A rank whose CPUs and memory sit on
 * different nodes pays a remote access on every byte it touches.
 */
public final class Numa {
    private Numa() {}

    static void describeSelf(Map<String, String> f) {
        String status = read(Path.of("/proc/self/status"));
        String cpus = field(status, "Cpus_allowed_list");
        String mems = field(status, "Mems_allowed_list");
        f.put("cpus", cpus);
        f.put("mems", mems);
        List<Integer> nodes = new ArrayList<>();
        StringBuilder cpuNodes = new StringBuilder();
        BitSet mine = parseList(cpus);
        try (var dir = Files.list(Path.of("/sys/devices/system/node"))) {
            for (Path p : dir.filter(p -> p.getFileName().toString().matches("node\\d+")).sorted().toList()) {
                int node = Integer.parseInt(p.getFileName().toString().substring(4));
                nodes.add(node);
                if (parseList(read(p.resolve("cpulist")).trim()).intersects(mine)) {
                    cpuNodes.append(cpuNodes.isEmpty() ? "" : ",").append(node);
                }
            }
        } catch (Exception e) {
            // no /sys (a container without it): one node is all that can be said
        }
        f.put("numaNodes", Integer.toString(Math.max(1, nodes.size())));
        f.put("cpuNodes", cpuNodes.isEmpty() ? "0" : cpuNodes.toString());
    }

    /** Whether CPUs and memory share no node (only meaningful with several nodes). */
    public static boolean mismatched(String cpuNodes, String mems, int numaNodes) {
        if (numaNodes < 2 || cpuNodes.isEmpty() || mems.isEmpty()) return false;
        return !parseList(cpuNodes).intersects(parseList(mems));
    }

    /** A Linux list such as {@code 0-3,8,10-11}. */
    public static BitSet parseList(String list) {
        BitSet b = new BitSet();
        for (String part : list.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) continue;
            try {
                int dash = p.indexOf('-');
                if (dash < 0) b.set(Integer.parseInt(p));
                else b.set(Integer.parseInt(p.substring(0, dash)), Integer.parseInt(p.substring(dash + 1)) + 1);
            } catch (NumberFormatException e) {
                // not a list: nothing to add
            }
        }
        return b;
    }

    private static String field(String status, String name) {
        for (String line : status.split("\n")) if (line.startsWith(name + ":")) return line.substring(name.length() + 1).trim();
        return "";
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (Exception e) {
            return "";
        }
    }
}
