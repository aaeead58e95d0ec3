package dev.jccl.ddp;

import dev.jccl.BFloat16;
import dev.jccl.DataType;
import dev.jccl.Half;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Moves float32 gradients into a bucket of the communication type and back. Packing narrows (round to
 * nearest even); unpacking widens exactly and multiplies by one float scale, which is how averaging
 * over ranks and micro-steps and loss-scale removal happen in the same pass. Both report whether they
 * met an infinite or NaN value, which is how overflow is found without a pass of its own.
 */
final class GradientCodec {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    private GradientCodec() {}

    /** Writes {@code n} floats of {@code src} from {@code srcElem} at element {@code dstElem} of {@code dst}. */
    static boolean pack(MemorySegment src, long srcElem, long n, MemorySegment dst, long dstElem, DataType type) {
        boolean nonFinite = false;
        switch (type) {
            case FLOAT32 -> {
                MemorySegment.copy(src, srcElem * 4, dst, dstElem * 4, n * 4);
                for (long i = 0; i < n; i++) nonFinite |= !Float.isFinite(src.getAtIndex(F32, srcElem + i));
            }
            case BFLOAT16 -> {
                for (long i = 0; i < n; i++) {
                    short h = BFloat16.fromFloat(src.getAtIndex(F32, srcElem + i));
                    nonFinite |= (h & 0x7F80) == 0x7F80;
                    dst.setAtIndex(I16, dstElem + i, h);
                }
            }
            case FLOAT16 -> {
                for (long i = 0; i < n; i++) {
                    short h = Half.fromFloat(src.getAtIndex(F32, srcElem + i));
                    nonFinite |= (h & 0x7C00) == 0x7C00;
                    dst.setAtIndex(I16, dstElem + i, h);
                }
            }
            default -> throw new IllegalArgumentException("gradients cannot travel as " + type.ncclName());
        }
        return nonFinite;
    }

    /** {@code dst[dstElem + i] = widen(src[srcElem + i]) * scale} for {@code n} elements. */
    static boolean unpack(MemorySegment src, long srcElem, DataType type, MemorySegment dst, long dstElem, long n, float scale) {
        boolean nonFinite = false;
        for (long i = 0; i < n; i++) {
            float v = read(src, srcElem + i, type) * scale;
            nonFinite |= !Float.isFinite(v);
            dst.setAtIndex(F32, dstElem + i, v);
        }
        return nonFinite;
    }

    static float read(MemorySegment src, long elem, DataType type) {
        return switch (type) {
            case FLOAT32 -> src.getAtIndex(F32, elem);
            case BFLOAT16 -> BFloat16.toFloat(src.getAtIndex(I16, elem));
            case FLOAT16 -> Half.toFloat(src.getAtIndex(I16, elem));
            default -> throw new IllegalArgumentException("gradients cannot travel as " + type.ncclName());
        };
    }

    /** Writes one float into element {@code elem} of a buffer of {@code type}. */
    static void write(MemorySegment dst, long elem, DataType type, float value) {
        switch (type) {
            case FLOAT32 -> dst.setAtIndex(F32, elem, value);
            case BFLOAT16 -> dst.setAtIndex(I16, elem, BFloat16.fromFloat(value));
            case FLOAT16 -> dst.setAtIndex(I16, elem, Half.fromFloat(value));
            default -> throw new IllegalArgumentException("gradients cannot travel as " + type.ncclName());
        }
    }

    /** Sum of squares of {@code n} floats, accumulated in double in index order (so every rank agrees). */
    static double sumSquares(MemorySegment grad, long fromElem, long n) {
        double s = 0;
        for (long i = 0; i < n; i++) {
            double v = grad.getAtIndex(F32, fromElem + i);
            s += v * v;
        }
        return s;
    }

    static void scale(MemorySegment grad, long fromElem, long n, float factor) {
        for (long i = 0; i < n; i++) grad.setAtIndex(F32, fromElem + i, grad.getAtIndex(F32, fromElem + i) * factor);
    }

    static void clamp(MemorySegment grad, long fromElem, long n, float limit) {
        for (long i = 0; i < n; i++) {
            float v = grad.getAtIndex(F32, fromElem + i);
            grad.setAtIndex(F32, fromElem + i, Math.max(-limit, Math.min(limit, v)));
        }
    }
}
