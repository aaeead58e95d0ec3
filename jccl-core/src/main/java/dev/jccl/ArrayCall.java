package dev.jccl;

import java.util.Objects;

/**
 * A collective on Java arrays, as the convenience overloads of {@link ArrayCollectives} describe it:
 * the arrays are staged through registered native memory (copied in, the collective runs, copied
 * out), which costs two copies the segment forms avoid.
 *
 * @param kind       which collective
 * @param in         the input array (float[], double[], int[] or long[]); may be null where the
 *                   collective reads nothing on this rank
 * @param out        the output array of the same class; may equal {@code in} (in place) or be null
 *                   where nothing is written on this rank
 * @param op         the reduction operator, for the reducing kinds
 * @param rootOrPeer the root (broadcast, reduce) or the peer (send, recv); 0 otherwise
 */
public record ArrayCall(Kind kind, Object in, Object out, ReduceOp op, int rootOrPeer) {
    public enum Kind { ALL_REDUCE, REDUCE_SCATTER, ALL_GATHER, BROADCAST, REDUCE, ALL_TO_ALL, SEND, RECV }

    public ArrayCall {
        Objects.requireNonNull(kind, "kind");
        if (in == null && out == null) throw new IllegalArgumentException(kind + ": both arrays are null");
        DataType t = typeOf(in != null ? in : out);
        if (in != null && out != null && typeOf(out) != t) {
            throw new IllegalArgumentException(kind + ": input is " + in.getClass().getSimpleName() + " but output is "
                    + out.getClass().getSimpleName());
        }
    }

    /** The element type of a float[], double[], int[] or long[]. */
    public static DataType typeOf(Object array) {
        return switch (array) {
            case float[] a -> DataType.FLOAT32;
            case double[] a -> DataType.FLOAT64;
            case int[] a -> DataType.INT32;
            case long[] a -> DataType.INT64;
            default -> throw new IllegalArgumentException("arrays of " + array.getClass().getSimpleName()
                    + " are not supported; use float[], double[], int[] or long[], or a MemorySegment");
        };
    }

    public static int length(Object array) {
        return array == null ? 0 : java.lang.reflect.Array.getLength(array);
    }

    public DataType type() {
        return typeOf(in != null ? in : out);
    }
}
