package dev.jccl.testkit;

import dev.jccl.config.Config;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.VerbsProvider;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One end of a test connection, as one rank would hold it: an opened context, a protection domain,
 * a send and a receive completion queue, and the queue pairs created on them.
 *
 * <p>{@link #close()} closes queue pairs, the domain, the queues and the context in that order, and
 * reports the first failure after trying them all.
 */
public final class Endpoint implements AutoCloseable {
    public static final Set<Access> ALL_ACCESS = EnumSet.allOf(Access.class);

    private final String name;
    private final DeviceContext context;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final CompletionReader sends;
    private final CompletionReader recvs;
    private final List<QueuePair> qps = new ArrayList<>();
    private boolean closed;

    private Endpoint(String name, DeviceContext context, int cqDepth, boolean oneCq) {
        this.name = name;
        this.context = context;
        try {
            this.pd = context.allocPd();
            this.sendCq = context.createCq(cqDepth);
            this.recvCq = oneCq ? sendCq : context.createCq(cqDepth);
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
        this.sends = new CompletionReader(name + (oneCq ? " CQ" : " send CQ"), sendCq);
        this.recvs = oneCq ? sends : new CompletionReader(name + " recv CQ", recvCq);
    }

    /** Opens {@code device} of {@code provider} as a fresh context, with CQs of {@code cqDepth}. */
    public static Endpoint open(String name, VerbsProvider provider, Device device, Config config, int cqDepth) {
        return new Endpoint(name, provider.open(device, config), cqDepth, false);
    }

    /**
     * Like {@link #open} with one CQ for sends and receives alike ({@link #sends()} and
     * {@link #recvs()} then read the same queue), for tests that watch the order of both.
     */
    public static Endpoint openWithOneCq(String name, VerbsProvider provider, Device device, Config config, int cqDepth) {
        return new Endpoint(name, provider.open(device, config), cqDepth, true);
    }

    public String name() { return name; }
    public DeviceContext context() { return context; }
    public ProtectionDomain pd() { return pd; }
    public CompletionReader sends() { return sends; }
    public CompletionReader recvs() { return recvs; }

    /** Creates a queue pair in RESET on this end's CQs. */
    public QueuePair createQp(int sendDepth, int recvDepth) {
        QueuePair qp = pd.createQp(new QpInitAttr(sendCq, recvCq, sendDepth, recvDepth));
        qps.add(qp);
        return qp;
    }

    /** The first queue pair this end created. */
    public QueuePair qp() {
        if (qps.isEmpty()) throw new IllegalStateException(name + " has no queue pair yet");
        return qps.getFirst();
    }

    /** Shareable memory of {@code bytes} from {@link ProtectionDomain#allocate}, registered with every right. */
    public MemoryRegion allocateRegion(long bytes) {
        return pd.register(pd.allocate(bytes), ALL_ACCESS);
    }

    /** Registers {@code segment} with every right. */
    public MemoryRegion register(MemorySegment segment) {
        return pd.register(segment, ALL_ACCESS);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        List<AutoCloseable> order = new ArrayList<>(qps);
        order.add(pd);
        order.add(sendCq);
        if (recvCq != sendCq) order.add(recvCq);
        order.add(context);
        RuntimeException first = null;
        for (AutoCloseable c : order) {
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) first = new IllegalStateException(name + ": closing " + c + " failed", e);
                else first.addSuppressed(e);
            }
        }
        if (first != null) throw first;
    }
}
