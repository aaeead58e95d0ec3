package dev.jccl.ddp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/** Named parameters and gradients as slices of two flat float32 arenas, as a model would hold them. */
final class FlatParams {
    final List<String> names = new ArrayList<>();
    final List<MemorySegment> values = new ArrayList<>();
    final List<MemorySegment> grads = new ArrayList<>();
    final MemorySegment valueArena;
    final MemorySegment gradArena;

    FlatParams(Arena arena, long... sizes) {
        long total = 0;
        for (long s : sizes) total += s;
        valueArena = arena.allocate(total * 4, 8);
        gradArena = arena.allocate(total * 4, 8);
        long off = 0;
        for (int i = 0; i < sizes.length; i++) {
            names.add("p" + i);
            values.add(valueArena.asSlice(off * 4, sizes[i] * 4));
            grads.add(gradArena.asSlice(off * 4, sizes[i] * 4));
            off += sizes[i];
        }
    }

    DdpOptions register(DdpOptions o) {
        for (int i = 0; i < names.size(); i++) o.param(names.get(i), values.get(i), grads.get(i));
        return o;
    }

    int count() {
        return names.size();
    }

    long elems(int p) {
        return values.get(p).byteSize() / 4;
    }

    float grad(int p, long i) {
        return grads.get(p).getAtIndex(ValueLayout.JAVA_FLOAT, i);
    }

    void setGrad(int p, long i, float v) {
        grads.get(p).setAtIndex(ValueLayout.JAVA_FLOAT, i, v);
    }

    void addGrad(int p, long i, float v) {
        setGrad(p, i, grad(p, i) + v);
    }

    float value(int p, long i) {
        return values.get(p).getAtIndex(ValueLayout.JAVA_FLOAT, i);
    }

    void setValue(int p, long i, float v) {
        values.get(p).setAtIndex(ValueLayout.JAVA_FLOAT, i, v);
    }

    /** Backward order: the last parameter's gradient is ready first. */
    void backward(DistributedDataParallel ddp) {
        for (int p = count() - 1; p >= 0; p--) ddp.gradReady(names.get(p));
    }

    float[] valueCopy() {
        return valueArena.toArray(ValueLayout.JAVA_FLOAT);
    }

    float[] gradCopy() {
        return gradArena.toArray(ValueLayout.JAVA_FLOAT);
    }
}
