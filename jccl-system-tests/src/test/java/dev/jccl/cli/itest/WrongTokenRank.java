package dev.jccl.cli.itest;

import dev.jccl.bootstrap.Rendezvous;
import dev.jccl.config.Config;
import dev.jccl.trace.Log;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;

import java.util.Map;

/**
 * A rank of {@link WrongTokenTest}. Both ranks meet through the launcher's store with the job token,
 * but rank 1 opens its tcp device with another token. Rank 0 prints where it listens and waits;
 * rank 1 tries to connect a queue pair to it and prints the refusal and its queue pair's state
 * afterwards. A connection that succeeds prints {@code FAILED} and exits 1.
 */
public final class WrongTokenRank {
    static final String CHANNEL = "wrong-token";

    private WrongTokenRank() {}

    public static void main(String[] args) {
        Config jobConfig = Config.fromEnvironment();
        Log.configure(jobConfig);
        VerbsProvider tcp = Providers.require("tcp");
        try (Rendezvous rv = Rendezvous.fromEnvironment()) {
            int rank = rv.environment().rank();
            Config config = rank == 0 ? jobConfig : jobConfig.with(Map.of("JCCL_AUTH_TOKEN", "not-the-job-token"));
            try (DeviceContext ctx = tcp.open(tcp.devices(config).getFirst(), config)) {
                QueuePair qp = ctx.allocPd().createQp(QpInitAttr.of(ctx.createCq(8), 4));
                qp.modifyToInit();
                if (rank == 0) {
                    rv.peers().publishConnectInfo(CHANNEL, 1, qp.localInfo());
                    System.out.println("listening at " + qp.localInfo().gid());
                } else {
                    try {
                        qp.modifyToRtr(rv.peers().fetchConnectInfo(CHANNEL, 0));
                        System.out.println("FAILED: connected with a token that is not the job's");
                        System.exit(1);
                    } catch (VerbsException e) {
                        System.out.println("refused: " + e.getMessage());
                    }
                    System.out.println("qp state after the refusal: " + qp.state());
                }
                rv.barrier(); // rank 0 listens until rank 1 has tried
            }
        }
    }
}
