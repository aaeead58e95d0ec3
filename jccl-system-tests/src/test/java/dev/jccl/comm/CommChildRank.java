package dev.jccl.comm;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.Jccl;
import dev.jccl.bootstrap.TcpStoreClient;

/**
 * One rank in a child JVM of a {@code JvmJob}, for {@link PeerLossTest}: joins through the parent's
 * tcp store (found through RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, JCCL_AUTH_TOKEN), passes one
 * barrier (and, with "warm", one 4 MiB allReduce, so every link exists), says READY, and waits to
 * be killed. Arguments: provider shmDir warm|cold.
 */
public final class CommChildRank {
    public static void main(String[] args) throws Exception {
        String token = System.getenv("JCCL_AUTH_TOKEN");
        try (TcpStoreClient store = TcpStoreClient.connect(System.getenv("MASTER_ADDR"),
                Integer.parseInt(System.getenv("MASTER_PORT")), token, 30_000_000_000L)) {
            Communicator comm = Jccl.init(CommOptions.builder().store(store).rank(Integer.parseInt(System.getenv("RANK")))
                    .size(Integer.parseInt(System.getenv("WORLD_SIZE"))).ignoreEnvironment().transports(args[0])
                    .knob("JCCL_SHM_DIR", args[1]).knob("JCCL_TIMEOUT", "30s").knob("JCCL_AUTH_TOKEN", token).build());
            comm.barrier().await();
            if (args[2].equals("warm")) {
                comm.allReduce(java.lang.foreign.Arena.global().allocate(4L << 20), 1 << 20, dev.jccl.DataType.FLOAT32,
                        dev.jccl.ReduceOp.SUM).await();
            }
            System.out.println("READY");
            System.out.flush();
            Thread.sleep(120_000);
        }
    }
}
