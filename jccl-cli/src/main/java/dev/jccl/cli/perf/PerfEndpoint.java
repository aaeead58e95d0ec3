package dev.jccl.cli.perf;

import dev.jccl.config.Config;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

/**
 * One side of a perf test: a context, one CQ, {@code qpCount} connected RC queue pairs and one
 * registered buffer the peer may write into and read from.
 */
final class PerfEndpoint implements AutoCloseable {
    final DeviceContext context;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final QueuePair[] qps;
    final MemoryRegion mr;
    final RemoteBuffer peer;
    final long timeoutNs;

    private PerfEndpoint(DeviceContext context, ProtectionDomain pd, CompletionQueue cq, QueuePair[] qps,
                         MemoryRegion mr, RemoteBuffer peer, long timeoutNs) {
        this.context = context;
        this.pd = pd;
        this.cq = cq;
        this.qps = qps;
        this.mr = mr;
        this.peer = peer;
        this.timeoutNs = timeoutNs;
    }

    static PerfEndpoint connect(VerbsProvider provider, Config config, int qpCount, int depth, long bufferBytes,
                                Exchange exchange) {
        DeviceContext ctx = provider.open(provider.devices(config).getFirst(), config);
        try {
            ProtectionDomain pd = ctx.allocPd();
            // Room for a full send and a full receive queue per QP, so the CQ can never overrun.
            CompletionQueue cq = ctx.createCq(2 * depth * qpCount + 16);
            MemorySegment buf = pd.allocate(Math.max(bufferBytes, 8));
            // Touch every page now: a first touch costs tens of µs per page on some VMs and would
            // otherwise be billed to the first size measured.
            buf.fill((byte) 0);
            MemoryRegion mr = pd.register(buf, EnumSet.allOf(Access.class));
            QueuePair[] qps = new QueuePair[qpCount];
            for (int i = 0; i < qpCount; i++) {
                qps[i] = pd.createQp(QpInitAttr.of(cq, depth));
                qps[i].modifyToInit();
            }
            for (int i = 0; i < qpCount; i++) {
                ConnectInfo theirs = ConnectInfo.decode(exchange.swap("qp/" + i, qps[i].localInfo().encode()));
                qps[i].modifyToRtr(theirs);
            }
            exchange.barrier("rtr");
            for (QueuePair qp : qps) {
                qp.modifyToRts();
                Log.info(Subsys.NET, "perf connection %s", qp.describe());
            }
            RemoteBuffer peer = RemoteBuffer.decode(exchange.swap("mr", mr.remote().encode()));
            return new PerfEndpoint(ctx, pd, cq, qps, mr, peer, config.get(dev.jccl.config.Knobs.TIMEOUT_NS));
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** Waits for completions; a timeout or an error status fails loudly with the completion. */
    int await(WorkCompletion[] wcs) {
        int n = cq.await(wcs, timeoutNs);
        if (n == 0) throw new VerbsException("no completion within " + timeoutNs / 1_000_000 + " ms");
        for (int i = 0; i < n; i++) {
            if (wcs[i].status() != WcStatus.SUCCESS) throw new VerbsException("work request failed: " + wcs[i]);
        }
        return n;
    }

    int qpIndex(int qpn) {
        for (int i = 0; i < qps.length; i++) if (qps[i].qpn() == qpn) return i;
        throw new VerbsException("completion for unknown qpn " + qpn);
    }

    @Override
    public void close() {
        context.close();
    }
}
