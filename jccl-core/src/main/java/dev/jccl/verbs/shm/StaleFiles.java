package dev.jccl.verbs.shm;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * Removes files that contexts of dead processes left behind (a killed process cannot unlink).
 *
 * <p>A context's files are removed when its pid is dead AND either its control file says it lived in
 * our pid namespace (so the pid check meant something), or it has no control file (a context dies
 * while closing removes that last) and the file is older than a minute. Files of live processes,
 * and of other namespaces, are never touched.
 */
final class StaleFiles {
    private static final Duration ORPHAN_AGE = Duration.ofMinutes(1);

    private StaleFiles() {}

    static int sweep(Path dir) {
        List<Path> stale = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "jccl-*")) {
            for (Path p : entries) {
                Matcher m = ShmPaths.NAME.matcher(p.getFileName().toString());
                if (!m.matches()) continue;
                long pid = Long.parseLong(m.group(1));
                int index = Integer.parseInt(m.group(2));
                // Our own pid with a context number not open here: an earlier process that had our pid.
                boolean dead = pid == ProcessHandle.current().pid()
                        ? !ShmContext.OPEN_INDEXES.contains(index) : !Processes.isAlive(pid);
                if (!dead) continue;
                ShmPaths owner = new ShmPaths(dir, pid, index);
                if (isStale(p, owner)) stale.add(p);
            }
        } catch (IOException e) {
            Log.warn(Subsys.SHM, "cannot scan %s for stale files: %s", dir, e.getMessage());
            return 0;
        }
        for (Path p : stale) ShmFiles.deleteQuietly(p);
        if (!stale.isEmpty()) Log.info(Subsys.SHM, "removed %d stale files of dead processes from %s", stale.size(), dir);
        return stale.size();
    }

    /** Removes every file of the context {@code owner} (a peer found dead in our namespace). */
    static void removeAll(ShmPaths owner) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(owner.dir(), owner.stem() + "*")) {
            for (Path p : entries) {
                if (owner.owns(p.getFileName().toString())) ShmFiles.deleteQuietly(p);
            }
        } catch (IOException e) {
            Log.warn(Subsys.SHM, "cannot remove files of %s: %s", owner.stem(), e.getMessage());
        }
    }

    private static boolean isStale(Path file, ShmPaths owner) throws IOException {
        Path control = owner.control();
        if (Files.exists(control)) return controlNamespace(control) == Processes.pidNamespace();
        try {
            return Files.getLastModifiedTime(file).toInstant().isBefore(Instant.now().minus(ORPHAN_AGE));
        } catch (IOException e) {
            return false; // already gone
        }
    }

    private static long controlNamespace(Path control) {
        try (FileChannel ch = FileChannel.open(control, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            ch.read(b, ControlDescriptor.PID_NAMESPACE_OFFSET);
            return b.hasRemaining() ? -1 : b.getLong(0);
        } catch (IOException e) {
            return -1;
        }
    }
}
