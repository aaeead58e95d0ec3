package dev.jccl.verbs.tcp;

import dev.jccl.verbs.ConnectInfo;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * A peer in its own JVM, for tests that kill it: prints its connect info (hex) on stdout, reads the
 * other side's from stdin, connects, prints READY and waits to be killed (or for stdin to close).
 */
public final class TcpPeerProcess {
    private TcpPeerProcess() {}

    public static void main(String[] args) throws Exception {
        try (TcpPeer peer = new TcpPeer(TcpPeer.config(Integer.parseInt(args[0])), 8)) {
            System.out.println(HexFormat.of().formatHex(peer.qp.localInfo().encode()));
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            peer.qp.modifyToRtr(ConnectInfo.decode(HexFormat.of().parseHex(in.readLine().trim())));
            peer.qp.modifyToRts();
            System.out.println("READY");
            System.out.flush();
            in.readLine(); // until killed
        }
    }
}
