package dev.jccl.verbs.tcp;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcStatus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.ServerSocket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JCCL_TCP_ADVERTISE: the listener binds the advertised port and publishes the advertised address;
 * here both are loopback's, so a peer that dials what was published reaches the listener itself
 * (a forwarder would sit between them in a real use).
 */
@Timeout(30)
@Tag("unit")
class TcpAdvertiseTest {
    @Test
    void aPeerDialsTheAdvertisedAddressAndPort() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        String advertised = "127.0.0.1:" + port;
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_ADVERTISE", advertised), 8); TcpPeer b = new TcpPeer(TcpPeer.config(1), 8)) {
            assertEquals(advertised, a.qp.localInfo().gid());
            assertTrue(!b.qp.localInfo().gid().equals(advertised), "the other peer keeps an ephemeral port");
            TcpPeer.connect(a, b);
            MemoryRegion src = b.region(1 << 16);
            MemoryRegion dst = a.region(1 << 16);
            TcpPeer.fill(src.segment(), 5);
            assertTrue(b.qp.postSend(SendWr.write(1, src.sge(0, 1 << 16), dst.address(), dst.rkey())));
            assertEquals(WcStatus.SUCCESS, b.awaitOne().status());
            assertEquals(-1, src.segment().mismatch(dst.segment()));
        }
    }
}
