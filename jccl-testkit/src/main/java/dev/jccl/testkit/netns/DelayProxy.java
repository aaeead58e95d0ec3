package dev.jccl.testkit.netns;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A user-space TCP forwarder that delays every chunk of bytes, each way, by a delay plus a uniform
 * jitter, keeping order (a chunk never leaves before the one ahead of it). The kernel's netem would
 * do this in tc, but not every kernel has it. The cluster runs it in the router namespace
 * ({@link NetnsCluster#delayProxyCommand}); it works anywhere, e.g. on loopback in a test.
 *
 * <p>Args: LISTEN_HOST LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS JITTER_MS LIFETIME_S. It prints
 * {@code PROXY listening HOST:PORT} once it accepts, and exits after LIFETIME_S whatever happens.
 */
public final class DelayProxy implements AutoCloseable {
    private static final int CHUNK_BYTES = 64 * 1024;
    private static final int MAX_QUEUED_CHUNKS = 1024;

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final long delayNs;
    private final long jitterNs;
    /** Bytes written on, both ways: how a test sees that traffic really went through the proxy. */
    private final AtomicLong forwarded = new AtomicLong();
    private volatile boolean closed;

    public DelayProxy(InetSocketAddress listen, InetSocketAddress target, long delayNs, long jitterNs) throws IOException {
        this.server = new ServerSocket();
        server.bind(listen);
        this.target = target;
        this.delayNs = delayNs;
        this.jitterNs = jitterNs;
        Thread.ofPlatform().daemon().name("jcclt-proxy-accept").start(this::acceptLoop);
    }

    public static void main(String[] args) throws Exception {
        long lifetimeNs = TimeUnit.SECONDS.toNanos(Long.parseLong(args[6]));
        try (DelayProxy p = new DelayProxy(new InetSocketAddress(args[0], Integer.parseInt(args[1])),
                new InetSocketAddress(args[2], Integer.parseInt(args[3])), TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[4])),
                TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[5])))) {
            System.out.println("PROXY listening " + args[0] + ":" + p.port());
            System.out.flush();
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(lifetimeNs));
        }
        System.exit(0);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Bytes forwarded so far, both directions of every connection. */
    public long forwardedBytes() {
        return forwarded.get();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket in = server.accept();
                Socket out = new Socket();
                out.connect(target, (int) TimeUnit.SECONDS.toMillis(10));
                in.setTcpNoDelay(true);
                out.setTcpNoDelay(true);
                pipe(in, out, "up");
                pipe(out, in, "down");
            } catch (IOException e) {
                if (!closed) System.err.println("delay proxy: " + e);
            }
        }
    }

    /** One direction: a reader stamps each chunk with its release time, a writer sends it then. */
    private void pipe(Socket from, Socket to, String way) {
        BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>(MAX_QUEUED_CHUNKS);
        Thread.ofPlatform().daemon().name("jcclt-proxy-read-" + way).start(() -> {
            long lastRelease = 0;
            try (InputStream is = from.getInputStream()) {
                byte[] buf = new byte[CHUNK_BYTES];
                int n;
                while ((n = is.read(buf)) >= 0) {
                    long jitter = jitterNs == 0 ? 0 : ThreadLocalRandom.current().nextLong(-jitterNs, jitterNs + 1);
                    lastRelease = Math.max(lastRelease, System.nanoTime() + Math.max(0, delayNs + jitter));
                    queue.put(new Chunk(Arrays.copyOf(buf, n), lastRelease));
                }
            } catch (IOException | InterruptedException e) {
                // the connection ended
            }
            queue.offer(Chunk.END);
        });
        Thread.ofPlatform().daemon().name("jcclt-proxy-write-" + way).start(() -> {
            try (OutputStream os = to.getOutputStream()) {
                while (true) {
                    Chunk c = queue.poll(1, TimeUnit.MINUTES);
                    if (c == null || c == Chunk.END) break;
                    long wait;
                    while ((wait = c.releaseNs - System.nanoTime()) > 0) LockSupport.parkNanos(wait);
                    os.write(c.bytes);
                    os.flush();
                    forwarded.addAndGet(c.bytes.length);
                }
            } catch (IOException | InterruptedException e) {
                // the connection ended
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        });
    }

    private record Chunk(byte[] bytes, long releaseNs) {
        static final Chunk END = new Chunk(new byte[0], 0);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
    }
}
