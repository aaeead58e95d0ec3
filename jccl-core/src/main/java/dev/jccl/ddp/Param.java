package dev.jccl.ddp;

import java.lang.foreign.MemorySegment;

/**
 * One registered parameter: its value and gradient as float32 views of equal size.
 *
 * @param index position in registration order
 */
record Param(int index, String name, MemorySegment value, MemorySegment grad) {
    Param {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("parameter " + index + " has no name");
        if (value.byteSize() != grad.byteSize()) {
            throw new IllegalArgumentException("parameter " + name + ": value has " + value.byteSize()
                    + " bytes but gradient " + grad.byteSize());
        }
        if (value.byteSize() == 0 || value.byteSize() % Float.BYTES != 0) {
            throw new IllegalArgumentException("parameter " + name + ": " + value.byteSize()
                    + " bytes is not a positive number of float32 elements");
        }
    }

    long elements() {
        return value.byteSize() / Float.BYTES;
    }
}
