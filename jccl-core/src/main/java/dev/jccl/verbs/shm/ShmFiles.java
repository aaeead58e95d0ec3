package dev.jccl.verbs.shm;

import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.VerbsException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Creating and mapping the files peers share. Files are created owner-only (rw-------): peers run as
 * the same user, and nobody else should read a training job's memory.
 */
final class ShmFiles {
    private ShmFiles() {}

    /** Creates {@code path}, which must not exist, as {@code bytes} (>= 1) zero bytes mapped read-write. */
    static MemorySegment create(Path path, long bytes, Arena arena) {
        try (FileChannel ch = FileChannel.open(path, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
        } catch (IOException | UnsupportedOperationException e) {
            throw new VerbsException("shm: cannot create " + path + " (" + bytes + " bytes): " + e.getMessage(), e);
        }
    }

    /** Maps the whole existing file read-write; its size is whatever the owner made it. */
    static MemorySegment mapExisting(Path path, Arena arena) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            if (size == 0) throw new IOException(path + " is empty");
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
        }
    }

    /**
     * Waits until {@code path} holds at least {@code minBytes} and starts with {@code magic} (which
     * its creator stores last), then maps it. Bounded by {@code deadline}; the peer may still be
     * filling in the header when its connect info arrives. A missing file fails at once.
     */
    static MemorySegment awaitReady(Path path, long minBytes, int magic, Deadline deadline, Arena arena) {
        BackoffIdleStrategy idle = WaitPolicy.stateWait();
        String last = "its header is not complete";
        while (true) {
            try {
                if (Files.size(path) >= minBytes && readInt(path) == magic) {
                    MemorySegment seg = mapExisting(path, arena);
                    if (SharedWords.getIntAcquire(seg, 0) == magic) return seg; // pairs with the creator's release
                }
                last = "its header is not complete";
            } catch (NoSuchFileException e) {
                // Peers create their control and queue-pair files before their connect info can be
                // published, so a file that is missing now belongs to a peer that closed or died:
                // fail at once instead of waiting out JCCL_TIMEOUT.
                throw new VerbsException("shm: peer file " + path + " does not exist: the peer has closed or exited");
            } catch (IOException e) {
                last = e.toString();
            }
            if (deadline.expired()) {
                throw new VerbsException("shm: peer file " + path + " did not become ready within JCCL_TIMEOUT: " + last);
            }
            idle.idle();
        }
    }

    private static int readInt(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
            while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
                // keep reading until 4 bytes or EOF
            }
            return b.hasRemaining() ? 0 : b.getInt(0);
        }
    }

    static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            dev.jccl.trace.Log.warn(dev.jccl.trace.Subsys.SHM, "cannot remove %s: %s", path, e.getMessage());
        }
    }
}
