package dev.jccl.verbs.tcp;

import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.verbs.ConnectInfo;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer in its own JVM, for tests that kill it: prints its connect info (hex) on stdout, reads the
 * other side's from stdin, connects, prints READY and waits to be killed (or for stdin to close).
 */
public final class TcpPeerProcess {
    private static final long CHILD_LINE_NS = TimeUnit.SECONDS.toNanos(30);

    private TcpPeerProcess() {}

    /**
     * The parent's half of the exchange above: connects {@code local} to the peer in {@code child} and
     * waits (bounded) for READY; returns the peer's connect info.
     */
    static ConnectInfo connect(ChildJvm child, TcpPeer local) throws Exception {
        ConnectInfo theirs = ConnectInfo.decode(HexFormat.of().parseHex(child.readLine(CHILD_LINE_NS).trim()));
        child.writeLine(HexFormat.of().formatHex(local.qp.localInfo().encode()));
        local.qp.modifyToRtr(theirs);
        local.qp.modifyToRts();
        assertEquals("READY", child.readLine(CHILD_LINE_NS));
        return theirs;
    }

    /** Sends signal {@code name} (STOP, CONT, ...) to process {@code pid}, bounded. */
    static void signal(String name, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "kill -" + name + " " + pid);
    }

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
