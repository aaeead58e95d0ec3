package dev.jccl.comm;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.Jccl;
import dev.jccl.bootstrap.TcpStoreClient;

/**
 * One rank in a child JVM, for {@link PeerLossTest}: joins through the parent's tcp store, passes
 * one barrier (and, with "warm", one 4 MiB allReduce, so every link exists), says READY, and waits to
 * be killed. Arguments: port token rank size provider shmDir warm|cold.
 */
public final class CommChildRank {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        try (TcpStoreClient store = TcpStoreClient.connect("127.0.0.1", port, args[1], 30_000_000_000L)) {
            Communicator comm = Jccl.init(CommOptions.builder().store(store).rank(Integer.parseInt(args[2]))
                    .size(Integer.parseInt(args[3])).ignoreEnvironment().transports(args[4]).knob("JCCL_SHM_DIR", args[5])
                    .knob("JCCL_TIMEOUT", "30s").knob("JCCL_AUTH_TOKEN", args[1]).build());
            comm.barrier().await();
            if (args[6].equals("warm")) {
                comm.allReduce(java.lang.foreign.Arena.global().allocate(4L << 20), 1 << 20, dev.jccl.DataType.FLOAT32,
                        dev.jccl.ReduceOp.SUM).await();
            }
            System.out.println("READY");
            System.out.flush();
            Thread.sleep(120_000);
        }
    }
}
