package dev.jccl.verbs.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Process liveness as far as this host lets us see it.
 *
 * <p>A pid means the same process to two parties only inside one pid namespace (containers that share
 * /dev/shm may not share pids), so every pid check is guarded by comparing namespaces; across
 * namespaces the heartbeat alone decides.
 */
final class Processes {
    private static final long OWN_NAMESPACE = readNamespace();

    private Processes() {}

    /** Inode of this process's pid namespace, or 0 where the platform does not say. */
    static long pidNamespace() {
        return OWN_NAMESPACE;
    }

    /** Whether {@code pid} is a live process; only meaningful when {@link #pidNamespace()} matches. */
    static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static long readNamespace() {
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString(); // "pid:[4026531836]"
            int open = link.indexOf('[');
            int close = link.indexOf(']');
            return open >= 0 && close > open ? Long.parseLong(link.substring(open + 1, close)) : 0;
        } catch (IOException | UnsupportedOperationException | NumberFormatException | SecurityException e) {
            return 0;
        }
    }
}
