package dev.jccl.bootstrap;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.AuthHandshake;
import dev.jccl.util.Deadline;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Opens an authenticated connection to a store, retrying while the server is not up yet.
 *
 * <p>Ranks usually start before (or at the same moment as) the process hosting the store, so a
 * refused or timed-out connect is retried with exponential backoff (10 ms doubling to 500 ms) until
 * the deadline. A failed token check is not retried: it will not get better.
 */
final class StoreConnector {
    private static final long MIN_BACKOFF_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_BACKOFF_NS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long MAX_ATTEMPT_NS = TimeUnit.SECONDS.toNanos(10);

    record Connected(Socket socket, DataInputStream in, OutputStream out) {}

    private StoreConnector() {}

    static Connected connect(String host, int port, String token, long timeoutNs) {
        if (port < 1 || port > 65535) throw new IllegalArgumentException("store port " + port + " outside [1, 65535]");
        StoreLimits.checkTimeout(timeoutNs);
        Deadline deadline = Deadline.after(timeoutNs);
        long startNs = System.nanoTime();
        long backoffNs = MIN_BACKOFF_NS;
        int attempts = 0;
        while (true) {
            attempts++;
            Socket s = new Socket();
            try {
                int attemptMs = millis(Math.min(deadline.remainingNs(), MAX_ATTEMPT_NS));
                s.connect(new InetSocketAddress(host, port), attemptMs);
                s.setSoTimeout(attemptMs); // bounds the handshake if the server stalls
                DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
                OutputStream out = new BufferedOutputStream(s.getOutputStream());
                AuthHandshake.client(in, out, token, TcpStoreServer.HANDSHAKE_PURPOSE);
                s.setSoTimeout(0); // reads are bounded per request from now on
                s.setTcpNoDelay(true);
                Log.info(Subsys.BOOTSTRAP, "store: connected to %s:%d after %d attempt(s)", host, port, attempts);
                return new Connected(s, in, out);
            } catch (AuthHandshake.AuthenticationException e) {
                TcpStoreServer.closeQuietly(s);
                throw new StoreException("the store at " + host + ":" + port + " refused this process: " + e.getMessage(), e);
            } catch (IOException e) {
                TcpStoreServer.closeQuietly(s);
                if (deadline.remainingNs() <= 0) {
                    throw new StoreException("could not reach the store at " + host + ":" + port + " within "
                            + StoreTimeoutException.seconds(System.nanoTime() - startNs) + " (" + attempts
                            + " attempts; last: " + e + "); check MASTER_ADDR/MASTER_PORT and that rank 0"
                            + " or the launcher hosting the store is running", e);
                }
                LockSupport.parkNanos(Math.min(backoffNs, deadline.remainingNs()));
                backoffNs = Math.min(backoffNs * 2, MAX_BACKOFF_NS);
            }
        }
    }

    /** At least 1 ms: a socket timeout of 0 would mean "forever". */
    private static int millis(long ns) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(ns)));
    }
}
