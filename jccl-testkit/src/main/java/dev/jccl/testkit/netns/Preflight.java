package dev.jccl.testkit.netns;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Whether this machine can host a namespace cluster, and if not, the one reason why. */
final class Preflight {
    private static final List<String> TOOLS = List.of("ip", "tc", "nft", "unshare", "mount");

    private Preflight() {}

    static Optional<String> unavailable() {
        if (!System.getProperty("os.name").startsWith("Linux")) return Optional.of("network namespaces need Linux");
        if (!isRoot()) return Optional.of("network namespaces need root (running as uid " + uid() + ")");
        for (String tool : TOOLS) {
            if (!onPath(tool)) {
                return Optional.of("'" + tool + "' is not installed" + (tool.equals("nft") ? " (apt-get install nftables; .ci/run does)" : ""));
            }
        }
        Cmd.Result routes = Cmd.run("ip", "-4", "route", "show", "to", "match", Names.hostAddress(0));
        if (!routes.ok()) return Optional.of("ip route does not work here: " + routes.output());
        for (String line : routes.output().lines().toList()) {
            if (!line.isBlank() && !line.startsWith("default") && !line.startsWith("blackhole " + Names.SUBNET)) {
                return Optional.of("the test subnet " + Names.SUBNET + " is routed on this machine already: " + line);
            }
        }
        return probe();
    }

    /** Root in a container may still lack the capabilities: try a namespace and a private mount once. */
    private static Optional<String> probe() {
        String ns = Names.PREFIX + "probe-" + ProcessHandle.current().pid();
        Cmd.Result add = Cmd.run("ip", "netns", "add", ns);
        if (!add.ok()) return Optional.of("cannot create a network namespace: " + add.output());
        try {
            Cmd.Result mount = Cmd.run("ip", "netns", "exec", ns, "unshare", "--uts", "--mount", "--propagation", "private",
                    "sh", "-c", "hostname " + ns + " && mount -t tmpfs " + Names.PREFIX + "probe /mnt");
            if (!mount.ok()) return Optional.of("cannot give a namespace its own host name and tmpfs: " + mount.output());
            return Optional.empty();
        } finally {
            Cmd.run("ip", "netns", "del", ns);
        }
    }

    private static boolean isRoot() {
        return uid().equals("0");
    }

    private static String uid() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Uid:"))
                    .map(l -> l.split("\\s+")[1]).findFirst().orElse("?");
        } catch (IOException e) {
            return "?";
        }
    }

    private static boolean onPath(String tool) {
        for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
            if (Files.isExecutable(Path.of(dir, tool))) return true;
        }
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) return true;
        }
        return false;
    }
}
