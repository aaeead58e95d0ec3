package dev.jccl.verbs.shm;

import dev.jccl.verbs.VerbsException;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of one context's files: {@code jccl-<pid>-<n>.ctl} (control), {@code jccl-<pid>-<n>-qp<qpn>}
 * (one per queue pair) and {@code jccl-<pid>-<n>-mem<id>} (one per shared allocation). A peer
 * derives every name from the control file path it got as the GID, so nothing else travels.
 *
 * @param dir   JCCL_SHM_DIR, absolute and normalized
 * @param pid   owner process
 * @param index the owner's context number within its process
 */
record ShmPaths(Path dir, long pid, int index) {
    /** Every file name this provider creates; group 1 is the pid, group 2 the context number. */
    static final Pattern NAME = Pattern.compile("jccl-(\\d{1,10})-(\\d{1,9})(\\.ctl|-qp\\d{1,10}|-mem\\d{1,10})");
    private static final Pattern CONTROL = Pattern.compile("jccl-(\\d{1,10})-(\\d{1,9})\\.ctl");

    ShmPaths {
        dir = dir.toAbsolutePath().normalize();
    }

    String stem() {
        return "jccl-" + pid + "-" + index;
    }

    Path control() {
        return dir.resolve(stem() + ".ctl");
    }

    Path qp(int qpn) {
        return dir.resolve(stem() + "-qp" + qpn);
    }

    Path memory(int allocId) {
        return dir.resolve(stem() + "-mem" + allocId);
    }

    /** Whether {@code fileName} is one of this context's files. */
    boolean owns(String fileName) {
        return NAME.matcher(fileName).matches()
                && (fileName.startsWith(stem() + ".") || fileName.startsWith(stem() + "-"));
    }

    /**
     * Parses a peer's GID. It must name a control file directly inside {@code expectedDir}: the
     * peer's files are only ever looked for there.
     */
    static ShmPaths ofControl(String gid, Path expectedDir) {
        Path p = Path.of(gid).toAbsolutePath().normalize();
        Path dir = expectedDir.toAbsolutePath().normalize();
        Matcher m = CONTROL.matcher(p.getFileName() == null ? "" : p.getFileName().toString());
        if (!m.matches() || !dir.equals(p.getParent())) {
            throw new VerbsException("shm: peer gid '" + gid + "' is not a control file in JCCL_SHM_DIR " + dir
                    + " (peers on one host must use the same JCCL_SHM_DIR)");
        }
        return new ShmPaths(dir, Long.parseLong(m.group(1)), Integer.parseInt(m.group(2)));
    }
}
