package dev.jccl.bootstrap;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static dev.jccl.bootstrap.StoreFrameDescriptor.*;

/**
 * A {@link Store} that talks to a {@link TcpStoreServer} over one authenticated connection.
 *
 * <p>Requests from many threads share the connection: each carries an id, a reader thread completes
 * the matching future, so a GET blocked on a missing key never holds up a SET from another thread.
 * A request waits at most its own timeout plus {@link #RESPONSE_GRACE_NS} (GET, WAIT) or the
 * client's operation timeout (everything else). When the connection drops, every pending and later
 * request fails with {@link StoreException} naming the store's address; there is no reconnect, since
 * a store that went away means the job is over.
 */
public final class TcpStoreClient implements Store {
    /** Extra time a GET or WAIT gives the server to deliver its own timeout answer. */
    static final long RESPONSE_GRACE_NS = TimeUnit.SECONDS.toNanos(5);

    private final Socket socket;
    private final String endpoint;
    private final long opTimeoutNs;
    private final OutputStream out; // guarded by itself
    private final Map<Long, CompletableFuture<StoreCodec.Reader>> pending = new ConcurrentHashMap<>();
    private final AtomicLong nextRequestId = new AtomicLong();
    private final AtomicReference<StoreException> failure = new AtomicReference<>();

    private TcpStoreClient(Socket socket, DataInputStream in, OutputStream out, String endpoint, long opTimeoutNs) {
        this.socket = socket;
        this.out = out;
        this.endpoint = endpoint;
        this.opTimeoutNs = opTimeoutNs;
        Thread reader = new Thread(() -> readLoop(in), "jccl-store-client-" + endpoint);
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Connects to the store at {@code host:port}, retrying with backoff until {@code timeoutNs}
     * runs out (the host may start after its clients), and authenticates with {@code token}. A wrong
     * token fails at once. {@code timeoutNs} also bounds each later non-blocking request.
     */
    public static TcpStoreClient connect(String host, int port, String token, long timeoutNs) {
        StoreConnector.Connected c = StoreConnector.connect(host, port, token, timeoutNs);
        return new TcpStoreClient(c.socket(), c.in(), c.out(), host + ":" + port, timeoutNs);
    }

    /** Connects with the job token and JCCL_TIMEOUT of {@code cfg}. */
    public static TcpStoreClient connect(String host, int port, Config cfg) {
        return connect(host, port, cfg.get(Knobs.AUTH_TOKEN), cfg.get(Knobs.TIMEOUT_NS));
    }

    /** "host:port" of the store this client talks to. */
    public String endpoint() {
        return endpoint;
    }

    @Override
    public void set(String key, byte[] value) {
        StoreLimits.checkValue(key, value);
        request(OP_SET, opTimeoutNs, List.of(key), w -> w.key(key).value(value)).end();
    }

    @Override
    public byte[] get(String key, long timeoutNs) {
        StoreLimits.checkTimeout(timeoutNs);
        StoreResponse r = request(OP_GET, withGrace(timeoutNs), List.of(key), w -> w.key(key).i64(timeoutNs));
        byte[] v = r.value();
        r.end();
        return v;
    }

    @Override
    public Optional<byte[]> tryGet(String key) {
        StoreResponse r = request(OP_TRY_GET, opTimeoutNs, List.of(key), w -> w.key(key));
        byte[] v = r.value();
        r.end();
        return Optional.ofNullable(v);
    }

    @Override
    public long add(String key, long delta) {
        StoreResponse r = request(OP_ADD, opTimeoutNs, List.of(key), w -> w.key(key).i64(delta));
        long v = r.i64();
        r.end();
        return v;
    }

    @Override
    public byte[] compareAndSet(String key, byte[] expected, byte[] desired) {
        if (expected != null) StoreLimits.checkValue(key, expected);
        StoreLimits.checkValue(key, desired);
        StoreResponse r = request(OP_CAS, opTimeoutNs, List.of(key), w -> w.key(key).value(expected).value(desired));
        byte[] v = r.value();
        r.end();
        return v;
    }

    @Override
    public void wait(List<String> keys, long timeoutNs) {
        StoreLimits.checkTimeout(timeoutNs);
        StoreLimits.checkKeys(keys);
        request(OP_WAIT, withGrace(timeoutNs), keys, w -> w.keys(keys).i64(timeoutNs)).end();
    }

    @Override
    public boolean delete(String key) {
        StoreResponse r = request(OP_DELETE, opTimeoutNs, List.of(key), w -> w.key(key));
        boolean existed = r.u8() != 0;
        r.end();
        return existed;
    }

    @Override
    public void close() {
        fail(new StoreException("store client for " + endpoint + " is closed"));
        TcpStoreServer.closeQuietly(socket);
    }

    /** Sends one request and returns its answer, positioned after an OK status. */
    private StoreResponse request(byte op, long waitNs, List<String> keys, Consumer<StoreCodec.Writer> fields) {
        long id = nextRequestId.incrementAndGet();
        StoreCodec.Writer w = new StoreCodec.Writer().u8(op).i64(id);
        fields.accept(w);
        byte[] body = w.body();
        CompletableFuture<StoreCodec.Reader> answer = new CompletableFuture<>();
        pending.put(id, answer);
        // fail() publishes the failure before draining, so a request registered after the drain sees it here.
        StoreException failed = failure.get();
        if (failed != null) {
            pending.remove(id);
            throw new StoreException(failed.getMessage(), failed);
        }
        long startNs = System.nanoTime();
        try {
            synchronized (out) {
                StoreCodec.writeFrame(out, body);
            }
        } catch (IOException e) {
            fail(new StoreException("connection to the store at " + endpoint + " lost: " + e.getMessage(), e));
            throw new StoreException(failure.get().getMessage(), e);
        }
        StoreCodec.Reader r = awaitAnswer(id, answer, waitNs, startNs, op, keys);
        return StoreResponse.of(r, endpoint, opName(op));
    }

    private StoreCodec.Reader awaitAnswer(long id, CompletableFuture<StoreCodec.Reader> answer, long waitNs,
                                          long startNs, byte op, List<String> keys) {
        try {
            return answer.get(waitNs, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            pending.remove(id);
            throw new StoreTimeoutException("store at " + endpoint + " did not answer " + opName(op) + " " + keys
                    + " within " + StoreTimeoutException.seconds(System.nanoTime() - startNs), keys, System.nanoTime() - startNs);
        } catch (InterruptedException e) {
            pending.remove(id);
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted during store " + opName(op) + " " + keys, e);
        } catch (ExecutionException e) {
            throw new StoreException(e.getCause().getMessage(), e.getCause());
        }
    }

    private void readLoop(DataInputStream in) {
        try {
            byte[] body;
            while ((body = StoreCodec.readFrame(in)) != null) {
                StoreCodec.Reader r = new StoreCodec.Reader(body);
                CompletableFuture<StoreCodec.Reader> answer = pending.remove(r.i64());
                if (answer != null) answer.complete(r); // absent: the requester gave up already
            }
            fail(new StoreException("the store at " + endpoint + " closed the connection"));
        } catch (IOException e) {
            fail(new StoreException("connection to the store at " + endpoint + " lost: " + e.getMessage(), e));
        }
    }

    private void fail(StoreException e) {
        failure.compareAndSet(null, e);
        for (Long id : pending.keySet()) {
            CompletableFuture<StoreCodec.Reader> f = pending.remove(id);
            if (f != null) f.completeExceptionally(failure.get());
        }
        TcpStoreServer.closeQuietly(socket);
    }

    private static long withGrace(long timeoutNs) {
        return timeoutNs > Long.MAX_VALUE - RESPONSE_GRACE_NS ? Long.MAX_VALUE : timeoutNs + RESPONSE_GRACE_NS;
    }
}
