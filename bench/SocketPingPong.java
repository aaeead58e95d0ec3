import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

/**
 * Baseline for write_lat over tcp: a plain ping-pong of SIZE-byte messages over one loopback TCP
 * connection with TCP_NODELAY, blocking sockets, an echo thread on the other end. Half the round
 * trip is one sample, as in jccl perf.
 * Usage: java SocketPingPong.java SIZE_BYTES ITERS  -> prints "pingpong <size> <median us> <p99 us>".
 */
public class SocketPingPong {
    public static void main(String[] args) throws Exception {
        int size = Integer.parseInt(args[0]);
        int iters = Integer.parseInt(args[1]);
        int warmup = Math.min(iters, 5000);
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(lo, 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
            client.setOption(StandardSocketOptions.TCP_NODELAY, true);
            SocketChannel echo = server.accept();
            echo.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Thread echoer = Thread.ofPlatform().daemon().start(() -> {
                ByteBuffer b = ByteBuffer.allocateDirect(size);
                try {
                    for (int i = 0; i < warmup + iters; i++) {
                        readFully(echo, b.clear());
                        echo.write(b.flip());
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            ByteBuffer b = ByteBuffer.allocateDirect(size);
            long[] oneWayNs = new long[iters];
            for (int i = 0; i < warmup + iters; i++) {
                long t0 = System.nanoTime();
                client.write(b.clear());
                readFully(client, b.clear());
                if (i >= warmup) oneWayNs[i - warmup] = (System.nanoTime() - t0) / 2;
            }
            echoer.join();
            Arrays.sort(oneWayNs);
            System.out.printf("pingpong %d %.2f %.2f%n", size, oneWayNs[iters / 2] / 1e3, oneWayNs[iters * 99 / 100] / 1e3);
        }
    }

    private static void readFully(SocketChannel ch, ByteBuffer b) throws Exception {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) throw new IllegalStateException("peer closed");
        }
    }
}
