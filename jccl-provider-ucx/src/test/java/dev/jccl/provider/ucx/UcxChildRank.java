package dev.jccl.provider.ucx;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.Jccl;
import dev.jccl.ReduceOp;
import dev.jccl.bootstrap.TcpStoreClient;

import java.lang.foreign.Arena;

/**
 * One rank in a child JVM for {@link UcxPeerLossTest}: joins through the parent's store over UCX,
 * passes a barrier and a 4 MiB allReduce (so its links exist), says READY and waits to be killed.
 * Arguments: port token rank size.
 */
public final class UcxChildRank {
    public static void main(String[] args) throws Exception {
        try (TcpStoreClient store = TcpStoreClient.connect("127.0.0.1", Integer.parseInt(args[0]), args[1], 30_000_000_000L)) {
            Communicator comm = Jccl.init(CommOptions.builder().store(store).rank(Integer.parseInt(args[2]))
                    .size(Integer.parseInt(args[3])).ignoreEnvironment().transports("ucx").knob("JCCL_TIMEOUT", "30s")
                    .knob("JCCL_AUTH_TOKEN", args[1]).build());
            comm.barrier().await();
            comm.allReduce(Arena.global().allocate(4L << 20), 1 << 20, DataType.FLOAT32, ReduceOp.SUM).await();
            System.out.println("READY");
            System.out.flush();
            Thread.sleep(120_000);
        }
    }
}
