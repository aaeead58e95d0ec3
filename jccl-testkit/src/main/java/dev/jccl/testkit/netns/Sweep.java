package dev.jccl.testkit.netns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Removes everything carrying the harness's prefix: what this cluster made when it closes, and what
 * a killed run left behind before a new one starts. Processes in a namespace go first (they would
 * keep nothing alive, but they would keep running), then the namespaces (their links, addresses,
 * qdiscs and nft tables go with them), then any stray link in the root namespace, the blackhole
 * route and the run folders. Every step tolerates finding nothing.
 */
final class Sweep {
    static final Path RUN_ROOT = Path.of(System.getProperty("java.io.tmpdir"));

    private Sweep() {}

    /** Returns what it removed, for the log. */
    static List<String> all() {
        List<String> removed = new ArrayList<>();
        for (String ns : namespaces()) {
            killAllIn(ns);
            if (Cmd.run("ip", "netns", "del", ns).ok()) removed.add("netns " + ns);
        }
        for (String link : Cmd.run("ip", "-o", "link", "show").output().lines().toList()) {
            String[] f = link.split(":\\s+");
            if (f.length < 2) continue;
            String name = f[1].split("@")[0];
            if (name.startsWith(Names.PREFIX) && Cmd.run("ip", "link", "del", name).ok()) removed.add("link " + name);
        }
        if (Cmd.run("ip", "route", "del", "blackhole", Names.SUBNET).ok()) removed.add("blackhole route " + Names.SUBNET);
        try (Stream<Path> runs = Files.list(RUN_ROOT)) {
            for (Path dir : runs.filter(p -> p.getFileName().toString().startsWith(Names.PREFIX + "run")).toList()) {
                deleteTree(dir);
                removed.add("folder " + dir);
            }
        } catch (IOException e) {
            // nothing to sweep there
        }
        return removed;
    }

    static List<String> namespaces() {
        return Cmd.run("ip", "netns", "list").output().lines().map(l -> l.split("\\s+")[0])
                .filter(n -> n.startsWith(Names.PREFIX)).toList();
    }

    /** SIGKILL to every process in {@code ns}; returns how many there were. */
    static int killAllIn(String ns) {
        List<Long> pids = pidsIn(ns);
        for (long pid : pids) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        for (long pid : pids) ProcessHandle.of(pid).ifPresent(h -> h.onExit().completeOnTimeout(h, 5, java.util.concurrent.TimeUnit.SECONDS).join());
        return pids.size();
    }

    static List<Long> pidsIn(String ns) {
        Cmd.Result r = Cmd.run("ip", "netns", "pids", ns);
        if (!r.ok()) return List.of();
        return r.output().lines().filter(l -> l.matches("\\d+")).map(Long::parseLong).toList();
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            // best effort: a folder under the temp root that a later sweep retries
        }
    }
}
