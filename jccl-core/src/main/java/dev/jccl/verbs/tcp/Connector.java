package dev.jccl.verbs.tcp;

import dev.jccl.util.AuthHandshake;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.VerbsException;

import jdk.net.ExtendedSocketOptions;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * Opening one lane: connect from our interface to the peer's listener, prove the job token, say
 * which queue pair and lane this is, and read the listener's verdict. Blocking, bounded by the
 * caller's deadline (connect timeout, then a socket read timeout).
 */
final class Connector {
    private Connector() {}

    /** Purpose string mixed into the handshake MAC, so a token proof for another service is not valid here. */
    static final String PURPOSE = "jccl-tcp-qp";
    /** Large buffers keep a loopback or LAN pipe full; the kernel caps them at net.core.[rw]mem_max. */
    static final int SOCKET_BUFFER_BYTES = 4 << 20;
    private static final int KEEPALIVE_PROBES = 4;

    /**
     * No Nagle delay (small frames are latency), large buffers, and keepalive probes every heartbeat
     * period, so a peer whose host vanished without closing its sockets is noticed in seconds too.
     * A process that dies is noticed at once: its kernel closes the sockets.
     */
    static void configure(SocketChannel ch, long heartbeatNs) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
        ch.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
        ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        int seconds = Math.clamp(TimeUnit.NANOSECONDS.toSeconds(heartbeatNs), 1, 3600);
        if (ch.supportedOptions().contains(ExtendedSocketOptions.TCP_KEEPIDLE)) {
            ch.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, seconds);
            ch.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, seconds);
            ch.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, KEEPALIVE_PROBES);
        }
    }

    static int millisLeft(Deadline deadline) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(deadline.remainingNs())));
    }

    static String address(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** An accepted lane: its channel (still blocking) and, for a shared socket, the peer queue pair's window (else 0). */
    record Opened(SocketChannel channel, int peerWindow) {}

    /** Returns a connected, authenticated, accepted lane, or throws naming the peer. */
    static Opened open(InetAddress local, InetSocketAddress target, HelloDescriptor.Hello hello, String token,
                              long heartbeatNs, Deadline deadline) {
        String peer = address(target);
        SocketChannel ch = null;
        try {
            ch = SocketChannel.open();
            configure(ch, heartbeatNs);
            ch.bind(new InetSocketAddress(local, 0));
            ch.socket().connect(target, millisLeft(deadline));
            ch.socket().setSoTimeout(millisLeft(deadline));
            InputStream in = ch.socket().getInputStream();
            OutputStream out = ch.socket().getOutputStream();
            try {
                AuthHandshake.client(in, out, token, PURPOSE);
            } catch (AuthHandshake.AuthenticationException e) {
                throw new VerbsException("peer " + peer + " refused the job token (JCCL_AUTH_TOKEN differs or is missing): "
                        + e.getMessage(), e);
            }
            HelloDescriptor.write(new DataOutputStream(out), hello);
            DataInputStream din = new DataInputStream(in);
            String verdict = din.readUTF();
            if (!verdict.isEmpty()) {
                throw new VerbsException("peer " + peer + (hello.probe() ? " answered: " : " refused lane " + hello.lane() + ": ") + verdict);
            }
            int peerWindow = 0;
            if (hello.shared()) {
                peerWindow = din.readInt();
                HelloDescriptor.checkWindow("peer " + peer + " announced window", peerWindow);
            }
            ch.socket().setSoTimeout(0);
            return new Opened(ch, peerWindow);
        } catch (VerbsException e) {
            closeQuietly(ch);
            throw e;
        } catch (SocketTimeoutException e) {
            closeQuietly(ch);
            throw new VerbsException("peer " + peer + " did not answer within JCCL_TIMEOUT while connecting lane "
                    + hello.lane() + ": " + e.getMessage(), e);
        } catch (IOException e) {
            closeQuietly(ch);
            throw new VerbsException("cannot connect lane " + hello.lane() + " from " + local.getHostAddress() + " to peer "
                    + peer + ": " + e, e);
        }
    }

    /**
     * Asks the peer's listener whether queue pair {@code hello.targetQpn()} is still there to open the
     * shared sockets; returns why not (a closed listener, a queue pair gone or in ERR), or null when it
     * is or the listener did not answer within {@code deadline} (a slow host is not a gone one).
     */
    static String probe(InetAddress local, InetSocketAddress target, HelloDescriptor.Hello hello, String token, long heartbeatNs,
                        Deadline deadline) {
        try {
            closeQuietly(open(local, target, hello, token, heartbeatNs, deadline).channel());
            return null;
        } catch (VerbsException e) {
            return e.getCause() instanceof SocketTimeoutException ? null : e.getMessage();
        }
    }

    /** Closes a socket, selector or stream whose owner is going away anyway. */
    static void closeQuietly(java.io.Closeable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (IOException ignored) {
            // closing anyway: nothing left to release
        }
    }

    /** Reads a send-only socket that became readable: end of stream or bytes from the peer both end it. */
    static void checkSendOnly(SocketChannel channel, String peer, int lane) throws IOException {
        int n = channel.read(ByteBuffer.allocate(1));
        if (n < 0) throw new EOFException("peer " + peer + " closed the connection (lane " + lane + ")");
        if (n > 0) throw new MalformedFrameException("peer " + peer + " wrote on send-only lane " + lane);
    }
}
