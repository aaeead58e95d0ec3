import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Baseline for write_bw over shm: MemorySegment.copy between two shared file mappings of the same
 * size in one process, the same kind of memory and the same copy the shm provider does.
 * Usage: java MemcpyBw.java SIZE_BYTES ITERS  -> prints "memcpy <size> <MB/s>" (10^6 bytes).
 */
public class MemcpyBw {
    public static void main(String[] args) throws Exception {
        long size = Long.parseLong(args[0]);
        int iters = Integer.parseInt(args[1]);
        Path a = Files.createTempFile(Path.of("/dev/shm"), "jccl-bench-", ".a");
        Path b = Files.createTempFile(Path.of("/dev/shm"), "jccl-bench-", ".b");
        try (Arena arena = Arena.ofShared();
             FileChannel ca = FileChannel.open(a, StandardOpenOption.READ, StandardOpenOption.WRITE);
             FileChannel cb = FileChannel.open(b, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment src = ca.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            MemorySegment dst = cb.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            src.fill((byte) 1);
            dst.fill((byte) 0); // touch every page first, as a registered buffer's pages are
            double[] runs = new double[5];
            for (int r = 0; r < runs.length; r++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < iters; i++) MemorySegment.copy(src, 0, dst, 0, size);
                runs[r] = (double) size * iters * 1e3 / (System.nanoTime() - t0);
            }
            Arrays.sort(runs);
            System.out.printf("memcpy %d %.2f%n", size, runs[runs.length / 2]);
        } finally {
            Files.deleteIfExists(a);
            Files.deleteIfExists(b);
        }
    }
}
