package dev.jccl.testkit.debug;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/** A protection domain whose queue pairs inject faults; memory and regions are the inner domain's own. */
final class DebugPd implements ProtectionDomain {
    private final ProtectionDomain inner;
    private final DebugContext context;
    private final Injector injector;
    private final List<DebugQp> qps = new CopyOnWriteArrayList<>();

    DebugPd(ProtectionDomain inner, DebugContext context, Injector injector) {
        this.inner = inner;
        this.context = context;
        this.injector = injector;
    }

    @Override public DeviceContext context() { return context; }
    @Override public MemorySegment allocate(long bytes) { return inner.allocate(bytes); }
    @Override public MemoryRegion register(MemorySegment segment, Set<Access> access) { return inner.register(segment, access); }
    @Override public void deregister(MemoryRegion region) { inner.deregister(region); }

    @Override
    public QueuePair createQp(QpInitAttr attr) {
        QpInitAttr unwrapped = new QpInitAttr(DebugCq.inner(attr.sendCq()), DebugCq.inner(attr.recvCq()), attr.maxSendWr(),
                attr.maxRecvWr());
        DebugQp qp = new DebugQp(inner.createQp(unwrapped), injector, this);
        qps.add(qp);
        return qp;
    }

    /**
     * A fresh local region of {@code bytes} for one corrupted payload: it must stay as it is until
     * the request completes, so each gets its own; corruption is rare, and all go when the domain does.
     */
    MemoryRegion bounce(long bytes) {
        return inner.register(inner.allocate(Math.max(1, bytes)), EnumSet.of(Access.LOCAL_WRITE));
    }

    void tick() {
        for (DebugQp qp : qps) qp.tick();
    }

    void forget(DebugQp qp) {
        qps.remove(qp);
    }

    @Override
    public void close() {
        qps.clear();
        inner.close();
    }
}
