package dev.jccl.verbs.tcp;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A socket that plays back fixed bytes, in pieces of random size and with "nothing now" answers in
 * between, as a real peer's bytes arrive; then end of stream. Only reading works; it is what
 * {@link InboundStream} needs, and it keeps a fuzz try free of threads and kernel sockets.
 */
final class ScriptedChannel extends SocketChannel {
    private final byte[] bytes;
    private final SplittableRandom random;
    private int pos;

    ScriptedChannel(byte[] bytes, SplittableRandom random) {
        super(SelectorProvider.provider());
        this.bytes = bytes;
        this.random = random;
    }

    /** Whether every byte was read. */
    boolean exhausted() {
        return pos == bytes.length;
    }

    @Override
    public int read(ByteBuffer dst) {
        if (pos == bytes.length) return -1;
        if (random.nextInt(8) == 0) return 0; // nothing arrived yet
        int n = Math.min(dst.remaining(), Math.min(bytes.length - pos, 1 + random.nextInt(random.nextBoolean() ? 16 : 70_000)));
        dst.put(bytes, pos, n);
        pos += n;
        return n;
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) {
        throw new UnsupportedOperationException("scatter read");
    }

    @Override public int write(ByteBuffer src) { throw new UnsupportedOperationException("write"); }
    @Override public long write(ByteBuffer[] srcs, int offset, int length) { throw new UnsupportedOperationException("write"); }
    @Override public SocketChannel bind(SocketAddress local) { return this; }
    @Override public <T> SocketChannel setOption(SocketOption<T> name, T value) { return this; }
    @Override public <T> T getOption(SocketOption<T> name) { return null; }
    @Override public Set<SocketOption<?>> supportedOptions() { return Set.of(); }
    @Override public SocketChannel shutdownInput() { return this; }
    @Override public SocketChannel shutdownOutput() { return this; }
    @Override public Socket socket() { throw new UnsupportedOperationException("socket"); }
    @Override public boolean isConnected() { return true; }
    @Override public boolean isConnectionPending() { return false; }
    @Override public boolean connect(SocketAddress remote) { return true; }
    @Override public boolean finishConnect() { return true; }
    @Override public SocketAddress getRemoteAddress() { return null; }
    @Override public SocketAddress getLocalAddress() { return null; }
    @Override protected void implCloseSelectableChannel() { }
    @Override protected void implConfigureBlocking(boolean block) throws IOException { }
}
