import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

/**
 * A plain 2-rank float32 sum allreduce over loopback TCP, no library: the bytes an allreduce must
 * move and one pass that sums them. Two threads of this JVM stand for the two ranks, one socket with
 * TCP_NODELAY between them, non-blocking and read by spinning (as a waiting caller reads its socket).
 * Per size the faster of two shapes counts:
 * - "x": one exchange of the whole buffer, then out = in + received (recursive doubling's bytes);
 * - "r": exchange halves, sum the received half into this side's half of out, exchange the summed
 *   halves straight into out (the ring's bytes: half as much summing, one more round trip).
 * Up to some tens of KiB this is what the loopback round trip costs any library. Above, one socket
 * and one thread a side are a baseline, not a bound: a library that spreads a message over sockets
 * and threads can beat it.
 * Timed as bench/mpi_allreduce.c times MPI_Allreduce (warm-up, then BATCHES batches of about
 * BATCH_US; median over batches of the time per call, p50/p99 of single calls, the slower side's).
 *
 * Usage: java PlainSocketAllreduce.java MIN_BYTES MAX_BYTES FACTOR BATCHES BATCH_US MIN_ITERS
 * Output: one line per size: "<bytes> <median_us> <p50_us> <p99_us> <mean_us> <x|r>". Each side holds
 * three buffers of MAX_BYTES in direct memory (1.5 GiB in all at 256 MiB).
 */
public class PlainSocketAllreduce {
    private static final int MAX_PER_BATCH = 20_000;

    public static void main(String[] args) throws Exception {
        long min = Long.parseLong(args[0]), max = Long.parseLong(args[1]), factor = Long.parseLong(args[2]);
        int batches = Integer.parseInt(args[3]), minIters = Integer.parseInt(args[5]);
        double batchNs = Double.parseDouble(args[4]) * 1e3;
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(lo, 0));
             SocketChannel a = SocketChannel.open(server.getLocalAddress());
             SocketChannel b = server.accept()) {
            Side[] sides = {new Side(a, 0, max), new Side(b, 1, max)};
            for (Side s : sides) s.ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            for (Side s : sides) s.ch.configureBlocking(false);
            timeBoth(sides, min, 'x', batches, batchNs, minIters); // the JIT's first pass, not counted
            for (long bytes = min; bytes <= max; bytes *= factor) {
                double[] best = null;
                char bestShape = 'x';
                for (char shape : new char[] {'x', 'r'}) {
                    if (shape == 'r' && bytes < 8) continue; // one float cannot be halved
                    double[] figs = timeBoth(sides, bytes, shape, batches, batchNs, minIters);
                    if (best == null || figs[0] < best[0]) { best = figs; bestShape = shape; }
                }
                System.out.printf("%d %.2f %.2f %.2f %.2f %c%n", floats(bytes) * 4, best[0] / 1e3, best[1] / 1e3, best[2] / 1e3,
                    best[3] / 1e3, bestShape);
                if (bytes > max / factor) break;
            }
        }
    }

    /** Runs both sides at once; returns the slower side's {median, p50, p99, mean} in ns. */
    private static double[] timeBoth(Side[] sides, long bytes, char shape, int batches, double batchNs, int minIters)
        throws Exception {
        double[][] figs = new double[2][];
        Thread peer = Thread.ofPlatform().start(() -> {
            try {
                figs[1] = sides[1].run(bytes, shape, batches, batchNs, minIters);
            } catch (RuntimeException e) {
                e.printStackTrace();
                sides[1].close(); // the other side's next read then ends instead of spinning on
            }
        });
        try {
            figs[0] = sides[0].run(bytes, shape, batches, batchNs, minIters);
        } catch (RuntimeException e) {
            sides[0].close();
            throw e;
        } finally {
            peer.join();
        }
        if (figs[1] == null) throw new IllegalStateException("the peer side failed");
        double[] slower = new double[4];
        for (int i = 0; i < 4; i++) slower[i] = Math.max(figs[0][i], figs[1][i]);
        return slower;
    }

    private static final class Side {
        final SocketChannel ch;
        final int rank;
        final ByteBuffer in, out, tmp;
        boolean warmed;

        Side(SocketChannel ch, int rank, long max) {
            this.ch = ch;
            this.rank = rank;
            int cap = (int) Math.max(8, max);
            in = ByteBuffer.allocateDirect(cap).order(ByteOrder.nativeOrder());
            out = ByteBuffer.allocateDirect(cap).order(ByteOrder.nativeOrder());
            tmp = ByteBuffer.allocateDirect(cap).order(ByteOrder.nativeOrder());
            for (int i = 0; i + 4 <= cap; i += 4) in.putFloat(i, rank + 1);
        }

        double[] run(long bytes, char shape, int batches, double batchNs, int minIters) {
            try {
                int n = floats(bytes) * 4;
                MemorySegment.ofBuffer(out).fill((byte) 0); // so the check below sees this size's and shape's sums only
                // Warm-up, for the JIT and the sockets' windows: a second at the first size, 0.2 s after that, the
                // same count on both sides.
                long w0 = System.nanoTime(), budgetNs = warmed ? 200_000_000L : 1_000_000_000L;
                warmed = true;
                for (int i = 0; i < 5; i++) call(n, shape);
                long warm = agree(Math.clamp(budgetNs / Math.max(1, (System.nanoTime() - w0) / 5), 5, 20_000));
                for (long i = 0; i < warm; i++) call(n, shape);
                long t0 = System.nanoTime();
                for (int i = 0; i < 5; i++) call(n, shape);
                double perCall = (System.nanoTime() - t0) / 5.0;
                long k = Math.max((long) (batchNs / Math.max(perCall, 1)), (minIters + batches - 1) / batches);
                k = Math.clamp(k, 1, MAX_PER_BATCH);
                // Both sides need the same count: the slower side's estimate, swapped through one exchange.
                k = agree(k);
                for (long i = 0; i < k; i++) call(n, shape);
                long calls = k * batches;
                long[] stamps = new long[(int) calls + 1];
                stamps[0] = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    call(n, shape);
                    stamps[i + 1] = System.nanoTime();
                }
                for (int at = 0; at < n; at += 4) {
                    if (out.getFloat(at) != 3f) throw new IllegalStateException("wrong sum at byte " + at + " of " + n + ", shape " + shape);
                }
                double[] means = new double[batches];
                for (int b = 0; b < batches; b++) means[b] = (stamps[(int) ((b + 1) * k)] - stamps[(int) (b * k)]) / (double) k;
                long[] single = new long[(int) calls];
                for (int i = 0; i < calls; i++) single[i] = stamps[i + 1] - stamps[i];
                Arrays.sort(means);
                Arrays.sort(single);
                double median = batches % 2 == 1 ? means[batches / 2] : (means[batches / 2 - 1] + means[batches / 2]) / 2;
                return new double[] {median, nearestRank(single, 0.50), nearestRank(single, 0.99),
                    (stamps[(int) calls] - stamps[0]) / (double) calls};
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }

        void close() {
            try {
                ch.close();
            } catch (Exception ignored) {
                // closing is all that is left to do
            }
        }

        private long agree(long k) throws Exception {
            ByteBuffer mine = ByteBuffer.allocate(8).putLong(0, k), theirs = ByteBuffer.allocate(8);
            transfer(mine, theirs);
            return Math.max(k, theirs.getLong(0));
        }

        private void call(int n, char shape) throws Exception {
            if (shape == 'x' || n < 8) {
                transfer(in.duplicate().clear().limit(n), tmp.duplicate().clear().limit(n));
                sum(0, n);
                return;
            }
            int half = (n / 2) & ~3, mineAt = rank == 0 ? 0 : half, mineLen = rank == 0 ? half : n - half;
            int theirsAt = rank == 0 ? half : 0, theirsLen = n - mineLen;
            // Reduce-scatter: send the peer's part of the input, take the peer's part of mine.
            transfer(in.duplicate().clear().position(theirsAt).limit(theirsAt + theirsLen),
                tmp.duplicate().clear().position(mineAt).limit(mineAt + mineLen));
            sum(mineAt, mineAt + mineLen);
            // All-gather: send my summed part, take the peer's straight into the output.
            ByteBuffer summed = out.duplicate().clear().position(mineAt).limit(mineAt + mineLen);
            transfer(summed, out.duplicate().clear().position(theirsAt).limit(theirsAt + theirsLen));
        }

        private void transfer(ByteBuffer send, ByteBuffer recv) throws Exception {
            while (send.hasRemaining() || recv.hasRemaining()) {
                if (send.hasRemaining()) ch.write(send);
                if (recv.hasRemaining() && ch.read(recv) < 0) throw new IllegalStateException("peer closed");
            }
        }

        /** out[from, to) = in + tmp over floats: one pass, as a library's reduce kernel makes. */
        private void sum(int from, int to) {
            MemorySegment i = MemorySegment.ofBuffer(in), t = MemorySegment.ofBuffer(tmp), o = MemorySegment.ofBuffer(out);
            for (long off = from; off < to; off += 4) {
                o.set(ValueLayout.JAVA_FLOAT_UNALIGNED, off,
                    i.get(ValueLayout.JAVA_FLOAT_UNALIGNED, off) + t.get(ValueLayout.JAVA_FLOAT_UNALIGNED, off));
            }
        }
    }

    /** Whole floats in {@code bytes}, at least one, as MPI_Allreduce's count is. */
    private static int floats(long bytes) {
        return (int) Math.max(1, bytes / 4);
    }

    private static double nearestRank(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length - 1e-6);
        return sorted[Math.clamp(rank, 1, sorted.length) - 1];
    }
}
