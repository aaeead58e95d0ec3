package dev.jccl.exec;

import dev.jccl.algo.BufferId;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * What the symbolic buffers of one operation are: INPUT and OUTPUT as views of the caller's
 * segments (with the segment each view lies in, which is what gets registered), and SCRATCH per
 * channel. Registered regions are looked up once per (buffer, protection domain) and operation.
 *
 * <p>Rebound for every operation of a reused {@link OpRun} ({@link #bind}, {@link #bindScratch}),
 * which forgets the regions of the last one: a caller's buffer may be another one next time, and the
 * registrar's cache is what makes a repeated lookup cheap.
 */
public final class Bindings {
    /** Registers memory as a local source for one protection domain, caching as it likes. */
    public interface Registrar {
        MemoryRegion region(MemorySegment owner, ProtectionDomain pd);
    }

    private static final int MAX_DOMAINS = 4;

    private final MemorySegment[] views;
    private final MemorySegment[] owners;
    private final MemoryRegion[] regions; // [slot * MAX_DOMAINS + domain]
    private final Registrar registrar;

    /** For {@code channels} channels, each of which may have a SCRATCH. */
    public Bindings(int channels, Registrar registrar) {
        int n = 2 + channels;
        views = new MemorySegment[n];
        owners = new MemorySegment[n];
        regions = new MemoryRegion[n * MAX_DOMAINS];
        this.registrar = registrar;
    }

    /**
     * Binds INPUT and OUTPUT for the next operation (null where the operation has none here);
     * {@code inputOwner} is the segment {@code input} is a view of, likewise for the output.
     */
    public void bind(MemorySegment input, MemorySegment inputOwner, MemorySegment output, MemorySegment outputOwner) {
        views[0] = input;
        owners[0] = inputOwner;
        views[1] = output;
        owners[1] = outputOwner;
        Arrays.fill(regions, null);
    }

    /** Binds {@code channel}'s SCRATCH (null where it needs none); call after {@link #bind}. */
    public void bindScratch(int channel, MemorySegment scratch) {
        views[2 + channel] = scratch;
        owners[2 + channel] = scratch;
    }

    /** The memory {@code buffer} names on {@code channel}. */
    MemorySegment segment(BufferId buffer, int channel) {
        MemorySegment s = views[slot(buffer, channel)];
        if (s == null) throw new IllegalStateException(buffer + " is not bound on channel " + channel);
        return s;
    }

    /** The region covering {@code buffer} in {@code pd}, registering it on first use. */
    MemoryRegion region(BufferId buffer, int channel, ProtectionDomain pd, int pdIndex) {
        int slot = slot(buffer, channel);
        if (pdIndex >= MAX_DOMAINS) throw new IllegalStateException("protection domain index " + pdIndex + " >= " + MAX_DOMAINS);
        MemoryRegion r = regions[slot * MAX_DOMAINS + pdIndex];
        if (r == null) {
            r = registrar.region(owners[slot], pd);
            regions[slot * MAX_DOMAINS + pdIndex] = r;
        }
        return r;
    }

    private static int slot(BufferId buffer, int channel) {
        return switch (buffer) {
            case INPUT -> 0;
            case OUTPUT -> 1;
            case SCRATCH -> 2 + channel;
        };
    }
}
