package dev.jccl.verbs.tcp;

import dev.jccl.util.AuthHandshake;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer that holds the token but sends garbage after the handshake: the queue pair goes to ERR,
 * its receives are flushed, and not one byte of the garbage reaches registered memory.
 */
@Tag("unit")
class TcpMalformedFrameTest {
    private static final int FAKE_QPN = 99;
    private static final int FAKE_PSN = 1234;
    private static final int PAYLOAD = 4096;

    enum Garbage {
        CHUNK_PAST_MESSAGE_END, UNKNOWN_TYPE, SEQ_OUTSIDE_WINDOW, CHUNK_OVER_FRAME_LIMIT, RECV_INDEX_FAR_AHEAD,
        RESERVED_BITS, ACK_FOR_NOTHING, READ_RESPONSE_FOR_NOTHING, PIGGYBACKED_ACK_FOR_NOTHING, NEGATIVE_ACK
    }

    @ParameterizedTest
    @EnumSource(Garbage.class)
    @Timeout(30)
    void garbageErrorsTheQpAndNeverReachesMemory(Garbage garbage) throws Exception {
        // Split sockets: B opens its own lane to the fake listener and reads only the raw socket played here.
        try (TcpPeer b = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_SHARED_SOCKETS", "0"), 4);
             ServerSocketChannel fakeListener = ServerSocketChannel.open()) {
            // Play A's listener so B can finish RTR, then keep B's socket open.
            fakeListener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread fake = Thread.ofPlatform().daemon().start(() -> acceptB(fakeListener));
            b.qp.modifyToRtr(new ConnectInfo("tcp", FAKE_QPN, 0, "127.0.0.1:" + fakeListener.socket().getLocalPort(), FAKE_PSN));
            b.qp.modifyToRts();
            MemoryRegion target = b.region(PAYLOAD);
            assertTrue(b.qp.postRecv(new RecvWr(7, target.sge(0, PAYLOAD))));

            try (Socket raw = new Socket(InetAddress.getLoopbackAddress(), TcpConnection.parseGid(b.qp.localInfo().gid()).getPort())) {
                AuthHandshake.client(raw.getInputStream(), raw.getOutputStream(), TcpPeer.TOKEN, Connector.PURPOSE);
                HelloDescriptor.write(new DataOutputStream(raw.getOutputStream()),
                        new HelloDescriptor.Hello(b.qp.qpn(), FAKE_QPN, 0, 1, 8, FAKE_PSN, HelloDescriptor.SPLIT));
                assertEquals("", new DataInputStream(raw.getInputStream()).readUTF());
                raw.getOutputStream().write(frame(garbage, target));
                raw.getOutputStream().flush();

                WorkCompletion flushed = b.awaitOne();
                assertEquals(WcStatus.WR_FLUSH_ERR, flushed.status(), flushed.toString());
                assertEquals(7, flushed.wrId());
                assertTrue(flushed.detail().contains("malformed frame"), flushed.detail());
                assertEquals(QpState.ERR, b.qp.state());
                assertTrue(TcpPeer.allZero(target.segment()), "garbage reached memory");
            }
            fake.interrupt();
        }
    }

    private static byte[] frame(Garbage g, MemoryRegion target) {
        FrameCodec c = new FrameCodec(ByteBuffer.allocate(HEADER_BYTES).order(ORDER));
        long seq = FAKE_PSN;
        switch (g) {
            case CHUNK_PAST_MESSAGE_END -> c.encode(TYPE_WRITE, (byte) 0, PAYLOAD, seq, 16, 0, target.address(), target.rkey(), 0, 0);
            case UNKNOWN_TYPE -> c.encode((byte) 42, (byte) 0, PAYLOAD, seq, PAYLOAD, 0, target.address(), target.rkey(), 0, 0);
            case SEQ_OUTSIDE_WINDOW -> c.encode(TYPE_WRITE, (byte) 0, PAYLOAD, seq + 1000, PAYLOAD, 0, target.address(), target.rkey(), 0, 0);
            case CHUNK_OVER_FRAME_LIMIT -> c.encode(TYPE_SEND, (byte) 0, Integer.MAX_VALUE, seq, Long.MAX_VALUE, 0, 0, 0, 0, 0);
            case RECV_INDEX_FAR_AHEAD -> c.encode(TYPE_SEND, (byte) 0, PAYLOAD, seq, PAYLOAD, 0, 0, 0, 0, 1L << 40);
            case RESERVED_BITS -> {
                c.encode(TYPE_SEND, (byte) 0, PAYLOAD, seq, PAYLOAD, 0, 0, 0, 0, 0);
                c.buffer().putShort(RESERVED_OFFSET, (short) 1);
            }
            case ACK_FOR_NOTHING -> c.encodeAck(seq + 5);
            case READ_RESPONSE_FOR_NOTHING -> c.encode(TYPE_READ_RESPONSE, (byte) 0, PAYLOAD, seq, PAYLOAD, 0, 0, 0, 0, 0);
            case PIGGYBACKED_ACK_FOR_NOTHING -> c.encode(TYPE_WRITE, (byte) 0, PAYLOAD, seq, PAYLOAD, 0, target.address(), target.rkey(), 0, 0)
                    .ack(12345);
            case NEGATIVE_ACK -> c.encode(TYPE_WRITE, (byte) 0, PAYLOAD, seq, PAYLOAD, 0, target.address(), target.rkey(), 0, 0)
                    .ack(-7);
        }
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + PAYLOAD);
        out.put(c.buffer().clear());
        while (out.hasRemaining()) out.put((byte) 0xA5);
        return out.array();
    }

    private static void acceptB(ServerSocketChannel listener) {
        try (SocketChannel ch = listener.accept()) {
            Socket s = ch.socket();
            AuthHandshake.server(s.getInputStream(), s.getOutputStream(), TcpPeer.TOKEN, Connector.PURPOSE);
            HelloDescriptor.read(new DataInputStream(s.getInputStream()));
            new DataOutputStream(s.getOutputStream()).writeUTF("");
            // Hold the socket until B shuts it (its queue pair went to ERR) or the test ends.
            while (s.getInputStream().read() >= 0) {
                // B sends nothing on this path but its own ACK/NAK frames; drain them
            }
        } catch (IOException ignored) {
            // the test is over
        }
    }
}
