package dev.jccl.bootstrap;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.AuthHandshake;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static dev.jccl.bootstrap.StoreFrameDescriptor.*;

/**
 * One client of a {@link TcpStoreServer}: authenticates it, then reads its requests in order and
 * answers them. Immediate requests are answered by this thread; GET and WAIT become watches answered
 * by the writer of the last missing key or by the server's timer, so responses may leave out of
 * order and several threads send on this socket, serialized by {@code sendLock}.
 */
final class StoreServerConnection implements Runnable {
    private final TcpStoreServer server;
    private final Socket socket;
    private final MemoryStore store;
    private final ScheduledExecutorService timers;
    private final String token;
    private final long handshakeTimeoutNs;
    private final String peer;
    private final Object sendLock = new Object();
    private final Set<PendingWait> pendingWaits = ConcurrentHashMap.newKeySet();
    private OutputStream out; // guarded by sendLock once the handshake is done

    StoreServerConnection(TcpStoreServer server, Socket socket, MemoryStore store, ScheduledExecutorService timers,
                          String token, long handshakeTimeoutNs) {
        this.server = server;
        this.socket = socket;
        this.store = store;
        this.timers = timers;
        this.token = token;
        this.handshakeTimeoutNs = handshakeTimeoutNs;
        this.peer = String.valueOf(socket.getRemoteSocketAddress());
    }

    @Override
    public void run() {
        boolean authenticated = false;
        try (socket) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            OutputStream rawOut = new BufferedOutputStream(socket.getOutputStream());
            socket.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(handshakeTimeoutNs)));
            AuthHandshake.server(in, rawOut, token, TcpStoreServer.HANDSHAKE_PURPOSE);
            authenticated = true;
            socket.setSoTimeout(0); // an authenticated rank may stay quiet for the whole job
            socket.setTcpNoDelay(true);
            synchronized (sendLock) {
                out = rawOut;
            }
            Log.info(Subsys.BOOTSTRAP, "store: client %s connected", peer);
            byte[] body;
            while ((body = StoreCodec.readFrame(in)) != null) serve(body);
        } catch (AuthHandshake.AuthenticationException e) {
            server.refusals().warn("store: refused connection from %s: %s", peer, e.getMessage());
        } catch (SocketTimeoutException e) {
            server.refusals().warn("store: refused connection from %s: no handshake within %d ms", peer,
                    TimeUnit.NANOSECONDS.toMillis(handshakeTimeoutNs));
        } catch (MalformedFrameException e) {
            server.refusals().warn("store: closing connection from %s: malformed frame: %s", peer, e.getMessage());
        } catch (IOException e) {
            if (!server.isClosed()) {
                String why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
                if (authenticated) Log.info(Subsys.BOOTSTRAP, "store: connection from %s ended: %s", peer, why);
                else server.refusals().warn("store: refused connection from %s: handshake failed: %s", peer, why);
            }
        } catch (RuntimeException e) {
            Log.warn(Subsys.BOOTSTRAP, "store: closing connection from %s after an internal error: %s", peer, e);
        } finally {
            for (PendingWait p : pendingWaits) p.abandon();
            server.connectionEnded(this);
        }
    }

    void close() {
        TcpStoreServer.closeQuietly(socket);
    }

    /** GETs and WAITs of this client not yet answered. */
    int pendingWaitCount() {
        return pendingWaits.size();
    }

    /** Parses the whole request first (a malformed one closes the connection), then runs it. */
    private void serve(byte[] body) throws MalformedFrameException {
        StoreRequest q = StoreRequest.parse(body);
        long id = q.id();
        String key = q.key();
        switch (q.op()) {
            case OP_SET -> answer(id, () -> {
                store.set(key, q.value());
                return ok(id);
            });
            case OP_GET -> answer(id, () -> awaitKeys(id, q.keys(), q.timeoutNs(), vs -> ok(id).value(vs.getFirst())));
            case OP_TRY_GET -> answer(id, () -> ok(id).value(store.tryGet(key).orElse(null)));
            case OP_ADD -> answer(id, () -> ok(id).i64(store.add(key, q.number())));
            case OP_CAS -> answer(id, () -> ok(id).value(store.compareAndSet(key, q.expected(), q.value())));
            case OP_WAIT -> answer(id, () -> awaitKeys(id, q.keys(), q.timeoutNs(), vs -> ok(id)));
            case OP_DELETE -> answer(id, () -> ok(id).u8((byte) (store.delete(key) ? 1 : 0)));
            default -> throw new MalformedFrameException("unknown opcode " + q.op()); // parse refused it already
        }
    }

    /**
     * Registers a watch answered later with {@code onReady}'s response, or with TIMEOUT by the
     * timer. Returns null: the answer is sent by whoever settles the watch (this thread when the
     * keys already exist).
     */
    private StoreCodec.Writer awaitKeys(long id, List<String> keys, long timeoutNs,
                                        Function<List<byte[]>, StoreCodec.Writer> onReady) {
        PendingWait p = new PendingWait(id, keys);
        pendingWaits.add(p); // before the watch exists, so that answering it always finds p to remove
        KeyWatch w;
        try {
            w = store.watch(keys, vs -> p.answered(onReady.apply(vs)));
        } catch (RuntimeException e) {
            pendingWaits.remove(p);
            throw e;
        }
        if (!w.isClaimed()) p.armTimer(w, timeoutNs);
        return null;
    }

    /**
     * One GET or WAIT in flight. Its watch decides once (by {@link KeyWatch#claim()}) whether the
     * keys or the timer answer it; the monitor of this object orders arming the timer against
     * cancelling it, whichever thread comes first.
     */
    private final class PendingWait {
        private final long id;
        private final List<String> keys;
        private final long startNs = System.nanoTime();
        private KeyWatch watch; // guarded by this
        private ScheduledFuture<?> timer; // guarded by this

        PendingWait(long id, List<String> keys) {
            this.id = id;
            this.keys = keys;
        }

        synchronized void armTimer(KeyWatch w, long timeoutNs) {
            watch = w;
            timer = timers.schedule(this::timedOut, timeoutNs, TimeUnit.NANOSECONDS);
            if (w.isClaimed()) timer.cancel(false); // answered while we were arming: the timer is moot
        }

        /** Runs on the thread that wrote the last missing key. */
        void answered(StoreCodec.Writer response) {
            pendingWaits.remove(this);
            synchronized (this) {
                if (timer != null) timer.cancel(false);
            }
            send(response);
        }

        /** Runs on the server's timer thread. */
        private void timedOut() {
            KeyWatch w;
            synchronized (this) {
                w = watch;
            }
            if (!store.cancel(w)) return; // the keys won the race
            pendingWaits.remove(this);
            List<String> missing = store.missing(keys);
            send(new StoreCodec.Writer().i64(id).u8(STATUS_TIMEOUT).i64(System.nanoTime() - startNs).keys(missing));
        }

        /** The connection is gone: withdraw the watch so a later write does not answer a dead socket. */
        void abandon() {
            KeyWatch w;
            synchronized (this) {
                w = watch;
                if (timer != null) timer.cancel(false);
            }
            if (w != null) store.cancel(w);
        }
    }

    private interface Action {
        StoreCodec.Writer run();
    }

    /** Runs an operation; a refusal (bad counter, closed store) is an ERROR answer, not a dropped connection. */
    private void answer(long id, Action action) {
        StoreCodec.Writer response;
        try {
            response = action.run();
        } catch (StoreException | IllegalArgumentException e) {
            response = new StoreCodec.Writer().i64(id).u8(STATUS_ERROR)
                    .value(String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8));
        }
        if (response != null) send(response);
    }

    private static StoreCodec.Writer ok(long id) {
        return new StoreCodec.Writer().i64(id).u8(STATUS_OK);
    }

    private void send(StoreCodec.Writer response) {
        byte[] body = response.body();
        synchronized (sendLock) {
            if (out == null) return;
            try {
                StoreCodec.writeFrame(out, body);
            } catch (IOException e) {
                // The reader thread sees the closed socket, logs once and cleans up.
                out = null;
                close();
            }
        }
    }
}
