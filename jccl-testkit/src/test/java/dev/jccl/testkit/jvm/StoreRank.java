package dev.jccl.testkit.jvm;

import dev.jccl.bootstrap.TcpStoreClient;

import java.nio.charset.StandardCharsets;

/**
 * A rank main for {@link JvmJobTest}: finds the job's store through the launch variables, publishes
 * its rank under "rank/R", says which rank of how many it is, and exits.
 */
public final class StoreRank {
    private StoreRank() {}

    public static void main(String[] args) {
        String rank = System.getenv("RANK");
        try (TcpStoreClient store = TcpStoreClient.connect(System.getenv("MASTER_ADDR"),
                Integer.parseInt(System.getenv("MASTER_PORT")), System.getenv("JCCL_AUTH_TOKEN"), 30_000_000_000L)) {
            store.set("rank/" + rank, (System.getenv("JCCL_STORE_HOSTED") + " " + String.join(" ", args)).getBytes(StandardCharsets.UTF_8));
        }
        System.out.println("rank " + rank + " of " + System.getenv("WORLD_SIZE"));
    }
}
