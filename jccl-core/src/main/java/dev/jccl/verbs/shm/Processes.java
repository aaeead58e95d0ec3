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

    /**
     * Whether {@code pid} is a live process; only meaningful when {@link #pidNamespace()} matches.
     * A killed process whose parent has not reaped it yet is a zombie, which ProcessHandle still
     * calls alive; /proc says otherwise, so a SIGKILLed peer counts as dead at once.
     */
    static boolean isAlive(long pid) {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) return false;
        char state = procState(pid);
        return state != 'Z' && state != 'X';
    }

    /** The state letter of /proc/<pid>/stat ("pid (comm) S ..."), or '?' where there is no /proc. */
    private static char procState(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int close = stat.lastIndexOf(')');
            return close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
        } catch (IOException | SecurityException e) {
            return '?';
        }
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
