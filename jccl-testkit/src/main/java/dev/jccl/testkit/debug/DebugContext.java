package dev.jccl.testkit.debug;

import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.ProtectionDomain;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * An opened inner device with one rank's {@link Injector}. Where faults hold requests back, a
 * daemon thread releases them every {@link #TICK_NS} even when nobody polls, so a held request
 * never waits for traffic that will not come.
 */
final class DebugContext implements DeviceContext {
    static final long TICK_NS = TimeUnit.MICROSECONDS.toNanos(200);

    private final DeviceContext inner;
    private final Device device;
    private final Injector injector;
    private final List<DebugPd> pds = new CopyOnWriteArrayList<>();
    private final Thread timer;
    private volatile boolean closed;

    DebugContext(DeviceContext inner, Device device, Injector injector) {
        this.inner = inner;
        this.device = device;
        this.injector = injector;
        this.timer = injector.holds() ? Thread.ofPlatform().daemon().name("jccl-debug-faults-r" + injector.rank()).start(this::run) : null;
        DebugProvider.opened(this);
    }

    private void run() {
        while (!closed) {
            try {
                tick();
            } catch (RuntimeException e) {
                // A queue pair closed or broken under us: its owner hears of it on its own posts and polls.
            }
            LockSupport.parkNanos(TICK_NS);
        }
    }

    void tick() {
        for (DebugPd pd : pds) pd.tick();
    }

    Injector injector() {
        return injector;
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public ProtectionDomain allocPd() {
        DebugPd pd = new DebugPd(inner.allocPd(), this, injector);
        pds.add(pd);
        return pd;
    }

    @Override
    public CompletionQueue createCq(int depth) {
        return new DebugCq(inner.createCq(depth), this, injector);
    }

    @Override
    public void close() {
        closed = true;
        if (timer != null) LockSupport.unpark(timer);
        pds.clear();
        inner.close();
        DebugProvider.closed(this);
    }
}
