package dev.jccl.testkit.netns;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * One cluster per machine at a time: the names are fixed, and the sweep at start would tear down
 * another JVM's live cluster. Test JVMs run side by side (surefire forks), so the second waits.
 */
final class ClusterLock implements AutoCloseable {
    private static final Path FILE = Path.of(System.getProperty("java.io.tmpdir"), Names.PREFIX + "cluster.lock");
    private static final long WAIT_NS = TimeUnit.MINUTES.toNanos(5);
    private static final long POLL_MS = 200;

    private final FileChannel channel;
    private final FileLock lock;

    private ClusterLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static ClusterLock acquire() {
        long deadline = System.nanoTime() + WAIT_NS;
        try {
            FileChannel ch = FileChannel.open(FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            while (true) {
                FileLock l = tryLock(ch);
                if (l != null) return new ClusterLock(ch, l);
                if (System.nanoTime() > deadline) {
                    ch.close();
                    throw new IllegalStateException("another network-namespace cluster held " + FILE + " for 5 minutes");
                }
                Thread.sleep(POLL_MS);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + FILE, e);
        }
    }

    /** Null while another JVM, or another cluster of this one, holds it. */
    private static FileLock tryLock(FileChannel ch) throws IOException {
        try {
            return ch.tryLock();
        } catch (OverlappingFileLockException heldHere) {
            return null;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // the lock goes with the channel, and with the process
        }
    }
}
