package dev.jccl.testkit;

import dev.jccl.bootstrap.PeerExchange;
import dev.jccl.bootstrap.Rendezvous;
import dev.jccl.config.Config;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.VerbsProvider;
import dev.jccl.verbs.WorkCompletion;

import java.util.ArrayList;
import java.util.List;

/**
 * The verbs level of a rank in a JVM of its own ({@link dev.jccl.testkit.jvm.JvmJob} or the
 * launcher): its RC queue pairs to every other rank of its job (a full mesh), connected through the
 * job's store, each with a completion queue of its own so completions name their peer by where they
 * arrive. {@link #connect} returns with every queue pair of every rank in RTS. Threads as ranks use
 * {@link RankHarness} instead.
 */
public final class StoreMesh implements AutoCloseable {
    public final DeviceContext context;
    public final ProtectionDomain pd;
    /** Indexed by peer rank; null at this rank's own index. */
    public final QueuePair[] qps;
    public final CompletionQueue[] cqs;

    private StoreMesh(DeviceContext context, ProtectionDomain pd, QueuePair[] qps, CompletionQueue[] cqs) {
        this.context = context;
        this.pd = pd;
        this.qps = qps;
        this.cqs = cqs;
    }

    public static StoreMesh connect(Rendezvous rv, VerbsProvider provider, Config config, int depth) {
        int rank = rv.environment().rank();
        int n = rv.environment().worldSize();
        DeviceContext ctx = provider.open(provider.devices(config).getFirst(), config);
        try {
            ProtectionDomain pd = ctx.allocPd();
            QueuePair[] qps = new QueuePair[n];
            CompletionQueue[] cqs = new CompletionQueue[n];
            PeerExchange peers = rv.peers();
            for (int p = 0; p < n; p++) {
                if (p == rank) continue;
                cqs[p] = ctx.createCq(2 * depth);
                qps[p] = pd.createQp(QpInitAttr.of(cqs[p], depth));
                qps[p].modifyToInit();
                peers.publishConnectInfo("mesh", p, qps[p].localInfo());
            }
            for (int p = 0; p < n; p++) {
                if (p != rank) qps[p].modifyToRtr(peers.fetchConnectInfo("mesh", p));
            }
            rv.barrier(); // every end is RTR before any end may send
            for (QueuePair qp : qps) if (qp != null) qp.modifyToRts();
            rv.barrier();
            return new StoreMesh(ctx, pd, qps, cqs);
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** Up to {@code count} completions from {@code cq}, fewer if {@code timeoutNs} runs out first. */
    public static List<WorkCompletion> await(CompletionQueue cq, int count, long timeoutNs) {
        List<WorkCompletion> out = new ArrayList<>();
        Deadline deadline = Deadline.after(timeoutNs);
        while (out.size() < count && !deadline.expired()) {
            WorkCompletion[] wcs = WorkCompletion.array(count - out.size()); // never takes more than asked
            int k = cq.await(wcs, deadline.remainingNs());
            for (int i = 0; i < k; i++) out.add(new WorkCompletion().copyFrom(wcs[i]));
        }
        return out;
    }

    @Override
    public void close() {
        context.close();
    }
}
