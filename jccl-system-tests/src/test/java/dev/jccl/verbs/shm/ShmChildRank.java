package dev.jccl.verbs.shm;

import dev.jccl.config.Config;
import dev.jccl.testkit.PairBed;
import dev.jccl.util.Segments;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WorkCompletion;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Map;

/**
 * A rank in a child JVM for {@link ShmPeerLossTest}. Protocol over stdin/stdout, one line each:
 * prints {@code INFO <connect info hex>}; reads {@code PEER <connect info hex> <remote buffer hex>};
 * writes {@code bytes} of pattern {@code seed} into the parent's buffer with WRITE_WITH_IMM (imm 42);
 * prints {@code WROTE <status>}; then idles until killed (at most 60 s).
 */
public final class ShmChildRank {
    static final long SEED = 0xC41D;

    private ShmChildRank() {}

    public static void main(String[] args) throws Exception {
        String dir = args[0];
        long bytes = Long.parseLong(args[1]);
        HexFormat hex = HexFormat.of();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Config config = Config.of(Map.of("JCCL_SHM_DIR", dir));
        try (DeviceContext ctx = PairBed.openContext("shm", config)) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16);
            QueuePair qp = pd.createQp(QpInitAttr.of(cq, 8));
            qp.modifyToInit();
            MemorySegment src = pd.allocate(bytes);
            Segments.fillPattern(src, SEED);
            MemoryRegion mr = pd.register(src, EnumSet.of(Access.LOCAL_WRITE));
            System.out.println("INFO " + hex.formatHex(qp.localInfo().encode()));
            System.out.flush();
            String[] peer = in.readLine().split(" ");
            qp.modifyToRtr(ConnectInfo.decode(hex.parseHex(peer[1])));
            qp.modifyToRts();
            RemoteBuffer target = RemoteBuffer.decode(hex.parseHex(peer[2]));
            qp.postSend(SendWr.writeWithImm(1, mr.sge(0, bytes), target.address(), target.rkey(), 42));
            WorkCompletion[] wc = WorkCompletion.array(1);
            int n = cq.await(wc, 30_000_000_000L);
            System.out.println("WROTE " + (n == 1 ? wc[0].status() : "TIMEOUT"));
            System.out.flush();
            Thread.sleep(60_000);
        }
    }
}
