package dev.jccl.exec;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;

import java.util.Objects;

/**
 * How one operation's elements are moved and combined: the type, the operator the receives reduce
 * with (SUM for AVG, whose division happens once at the end), the kernels, and the fingerprint every
 * chunk of the operation carries.
 */
public record OpSpec(DataType type, ReduceOp reduceWith, Kernels kernels, int fingerprint) {
    public OpSpec {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(reduceWith, "reduceWith");
        Objects.requireNonNull(kernels, "kernels");
        if (reduceWith == ReduceOp.AVG) throw new IllegalArgumentException("receives reduce AVG as SUM; pass SUM");
    }

    int elemBytes() {
        return type.byteSize();
    }
}
