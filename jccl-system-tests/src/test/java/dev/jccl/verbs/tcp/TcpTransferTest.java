package dev.jccl.verbs.tcp;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every opcode moves every size byte for byte, over one socket and striped over four, shared by both directions or one per direction. */
@Tag("unit")
class TcpTransferTest {
    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String shared : new String[] {"1", "0"}) {
            for (int lanes : new int[] {1, 4}) {
                for (Opcode op : Opcode.values()) {
                    for (long bytes : new long[] {0, 1, 1_000_003, 64L << 20}) out.add(Arguments.of(op, bytes, lanes, shared));
                }
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} of {1} bytes over {2} socket(s), JCCL_TCP_SHARED_SOCKETS={3}")
    @MethodSource("cases")
    @Timeout(60)
    void movesEveryByte(Opcode op, long bytes, int lanes, String shared) {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(lanes, "JCCL_TCP_SHARED_SOCKETS", shared), 8);
             TcpPeer b = new TcpPeer(TcpPeer.config(lanes, "JCCL_TCP_SHARED_SOCKETS", shared), 8)) {
            TcpPeer.connect(a, b);
            MemoryRegion atA = a.region(bytes);
            MemoryRegion atB = b.region(bytes);
            // The source is on A for SEND/WRITE, on B for READ.
            MemorySegment source = op == Opcode.RDMA_READ ? atB.segment() : atA.segment();
            MemorySegment sink = op == Opcode.RDMA_READ ? atA.segment() : atB.segment();
            TcpPeer.fill(source, bytes * 31 + op.ordinal());
            Sge local = atA.sge(0, bytes);
            int imm = 0x5eed0000 + (int) bytes;
            switch (op) {
                case SEND -> {
                    assertTrue(b.qp.postRecv(new RecvWr(77, atB.sge(0, bytes))));
                    assertTrue(a.qp.postSend(SendWr.send(1, local)));
                }
                case RDMA_WRITE -> assertTrue(a.qp.postSend(SendWr.write(1, local, atB.address(), atB.rkey())));
                case RDMA_WRITE_WITH_IMM -> {
                    assertTrue(b.qp.postRecv(new RecvWr(77, Sge.EMPTY)));
                    assertTrue(a.qp.postSend(SendWr.writeWithImm(1, local, atB.address(), atB.rkey(), imm)));
                }
                case RDMA_READ -> assertTrue(a.qp.postSend(SendWr.read(1, local, atB.address(), atB.rkey())));
            }
            WorkCompletion sent = a.awaitOne();
            assertEquals(WcStatus.SUCCESS, sent.status(), sent.toString());
            assertEquals(1, sent.wrId());
            assertEquals(bytes, sent.byteLen());
            if (op == Opcode.SEND || op == Opcode.RDMA_WRITE_WITH_IMM) {
                WorkCompletion received = b.awaitOne();
                assertEquals(WcStatus.SUCCESS, received.status(), received.toString());
                assertEquals(77, received.wrId());
                assertEquals(bytes, received.byteLen());
                assertEquals(op == Opcode.SEND ? WcOpcode.RECV : WcOpcode.RECV_RDMA_WITH_IMM, received.opcode());
                if (op == Opcode.RDMA_WRITE_WITH_IMM) {
                    assertTrue(received.hasImm());
                    assertEquals(imm, received.imm());
                }
            } else {
                b.assertNoCompletion(5); // one-sided: the target sees nothing
            }
            assertEquals(-1, source.mismatch(sink), "first differing byte");
        }
    }
}
