package dev.jccl.verbs.tcp;

import dev.jccl.trace.Log;
import dev.jccl.trace.RateLimitedWarning;
import dev.jccl.trace.Subsys;
import dev.jccl.util.AuthHandshake;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.VerbsException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A context's one listening socket, bound to the device's address only, on an ephemeral port.
 *
 * <p>The accept thread only accepts; each connection's handshake runs on its own virtual thread
 * under a socket read timeout, so a silent or slow client cannot hold up others. A connection must
 * prove the job token (JCCL_AUTH_TOKEN) before anything else is read from it; one that does not is
 * closed and logged with its remote address. Then its hello names a queue pair and lane, and the
 * socket is handed to that queue pair.
 */
final class TcpListener implements AutoCloseable {
    private final TcpContext context;
    private final ServerSocketChannel server;
    private final Thread acceptor;
    private final Set<SocketChannel> handshaking = ConcurrentHashMap.newKeySet();
    /** Anyone who reaches the port can cause these; a port scan must not flood the log. */
    private final RateLimitedWarning refusals = new RateLimitedWarning(Subsys.NET, "refusals");
    private volatile boolean closed;

    TcpListener(TcpContext context) {
        this.context = context;
        try {
            this.server = ServerSocketChannel.open();
            // Set before listening: the receive window scale is agreed in the SYN exchange.
            server.setOption(StandardSocketOptions.SO_RCVBUF, Connector.SOCKET_BUFFER_BYTES);
            server.bind(new InetSocketAddress(context.address(), context.listenPort()), 128);
        } catch (IOException e) {
            throw new VerbsException("cannot listen on " + context.deviceLabel() + ": " + e, e);
        }
        this.acceptor = Thread.ofPlatform().daemon().name("jccl-tcp-listen-" + port()).start(this::acceptLoop);
    }

    int port() {
        return server.socket().getLocalPort();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                SocketChannel ch = server.accept();
                handshaking.add(ch);
                Thread.ofVirtual().name("jccl-tcp-handshake").start(() -> handshake(ch));
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (closed) return;
                Log.warn(Subsys.NET, "listener %s: accept failed: %s", context.gid(), e);
            }
        }
    }

    private void handshake(SocketChannel ch) {
        String peer = "unknown peer";
        boolean accepted = false;
        try {
            peer = Connector.address((InetSocketAddress) ch.getRemoteAddress());
            Connector.configure(ch, context.heartbeatNs());
            ch.socket().setSoTimeout(Connector.millisLeft(Deadline.after(context.timeoutNs())));
            InputStream in = ch.socket().getInputStream();
            OutputStream out = ch.socket().getOutputStream();
            AuthHandshake.server(in, out, context.token(), Connector.PURPOSE);
            HelloDescriptor.Hello hello = HelloDescriptor.read(new DataInputStream(in));
            if (hello.probe()) {
                new DataOutputStream(out).writeUTF(context.probe(hello));
                return; // closed below: a probe is never a lane
            }
            String refusal = context.attach(hello, ch, peer);
            accepted = refusal.isEmpty();
            DataOutputStream dout = new DataOutputStream(out);
            dout.writeUTF(refusal);
            if (accepted && hello.shared()) dout.writeInt(context.window(hello.targetQpn()));
            dout.flush();
            if (accepted) context.startLane(hello);
            if (!accepted) refusals.warn("listener %s refused %s: %s", context.gid(), peer, refusal);
            else Log.trace(Subsys.NET, "listener %s: %s is lane %d of qp %d -> qp %d", context.gid(), peer, hello.lane(),
                    hello.sourceQpn(), hello.targetQpn());
        } catch (AuthHandshake.AuthenticationException e) {
            refusals.warn("listener %s refused connection from %s: %s", context.gid(), peer, e.getMessage());
        } catch (IOException e) {
            if (!closed) refusals.warn("listener %s: handshake with %s failed: %s", context.gid(), peer, e);
        } finally {
            handshaking.remove(ch);
            if (!accepted) Connector.closeQuietly(ch);
        }
    }

    /** Stops accepting and aborts handshakes in progress; accepted sockets belong to their queue pairs. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (SocketChannel ch : handshaking) Connector.closeQuietly(ch);
        refusals.flush();
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
