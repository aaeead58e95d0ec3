package dev.jccl.cli.tool;

import java.nio.file.Files;
import java.nio.file.Path;

/** This process's resource limits, as Linux shows them in /proc/self/limits (soft limit; "unlimited" as is). */
public final class Limits {
    private Limits() {}

    /** The soft limit named {@code name} (e.g. "Max open files"), or "" when it cannot be read. */
    public static String read(String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith(name)) {
                    String[] parts = line.substring(name.length()).trim().split("\\s+");
                    return parts.length > 0 ? parts[0] : "";
                }
            }
        } catch (Exception e) {
            return "";
        }
        return "";
    }

    /** A limit as a number; {@code Long.MAX_VALUE} for unlimited, -1 when unknown. */
    public static long value(String text) {
        if (text.equals("unlimited")) return Long.MAX_VALUE;
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
