package dev.jccl;

/**
 * Convenience overloads on Java arrays (float[], double[], int[], long[]). Counts come from the
 * array lengths: allReduce, broadcast, reduce and send/recv move the whole array; reduceScatter's
 * output and allGather's input are one rank's block; allToAll's arrays hold {@code size()} blocks.
 *
 * <p>Arrays live on the Java heap, where no transport can reach them, so every call is staged
 * through registered native memory: copied in when issued, copied out when the operation completes
 * (before its {@link Work} reports done). That is two extra copies; the {@link java.lang.foreign.MemorySegment}
 * forms avoid them, and the debug log (JCCL_DEBUG=INFO) says when staging happens. Do not touch the
 * arrays until the operation completes.
 */
public interface ArrayCollectives {
    /** Runs {@code call} staged through registered memory; every overload below comes here. */
    Work arrays(ArrayCall call);

    default Work allReduce(float[] data, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_REDUCE, data, data, op, 0));
    }

    default Work allReduce(float[] in, float[] out, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_REDUCE, in, out, op, 0));
    }

    default Work reduceScatter(float[] in, float[] out, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.REDUCE_SCATTER, in, out, op, 0));
    }

    default Work allGather(float[] in, float[] out) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_GATHER, in, out, null, 0));
    }

    default Work broadcast(float[] data, int root) {
        return arrays(new ArrayCall(ArrayCall.Kind.BROADCAST, data, data, null, root));
    }

    default Work reduce(float[] in, float[] out, ReduceOp op, int root) {
        return arrays(new ArrayCall(ArrayCall.Kind.REDUCE, in, out, op, root));
    }

    default Work allToAll(float[] in, float[] out) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_TO_ALL, in, out, null, 0));
    }

    default Work send(float[] data, int peer) {
        return arrays(new ArrayCall(ArrayCall.Kind.SEND, data, null, null, peer));
    }

    default Work recv(float[] data, int peer) {
        return arrays(new ArrayCall(ArrayCall.Kind.RECV, null, data, null, peer));
    }

    default Work allReduce(double[] data, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_REDUCE, data, data, op, 0));
    }

    default Work allReduce(double[] in, double[] out, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_REDUCE, in, out, op, 0));
    }

    default Work reduceScatter(double[] in, double[] out, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.REDUCE_SCATTER, in, out, op, 0));
    }

    default Work allGather(double[] in, double[] out) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_GATHER, in, out, null, 0));
    }

    default Work broadcast(double[] data, int root) {
        return arrays(new ArrayCall(ArrayCall.Kind.BROADCAST, data, data, null, root));
    }

    default Work reduce(double[] in, double[] out, ReduceOp op, int root) {
        return arrays(new ArrayCall(ArrayCall.Kind.REDUCE, in, out, op, root));
    }

    default Work allToAll(double[] in, double[] out) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_TO_ALL, in, out, null, 0));
    }

    default Work send(double[] data, int peer) {
        return arrays(new ArrayCall(ArrayCall.Kind.SEND, data, null, null, peer));
    }

    default Work recv(double[] data, int peer) {
        return arrays(new ArrayCall(ArrayCall.Kind.RECV, null, data, null, peer));
    }

    default Work allReduce(int[] data, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_REDUCE, data, data, op, 0));
    }

    default Work allReduce(int[] in, int[] out, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_REDUCE, in, out, op, 0));
    }

    default Work reduceScatter(int[] in, int[] out, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.REDUCE_SCATTER, in, out, op, 0));
    }

    default Work allGather(int[] in, int[] out) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_GATHER, in, out, null, 0));
    }

    default Work broadcast(int[] data, int root) {
        return arrays(new ArrayCall(ArrayCall.Kind.BROADCAST, data, data, null, root));
    }

    default Work reduce(int[] in, int[] out, ReduceOp op, int root) {
        return arrays(new ArrayCall(ArrayCall.Kind.REDUCE, in, out, op, root));
    }

    default Work allToAll(int[] in, int[] out) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_TO_ALL, in, out, null, 0));
    }

    default Work send(int[] data, int peer) {
        return arrays(new ArrayCall(ArrayCall.Kind.SEND, data, null, null, peer));
    }

    default Work recv(int[] data, int peer) {
        return arrays(new ArrayCall(ArrayCall.Kind.RECV, null, data, null, peer));
    }

    default Work allReduce(long[] data, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_REDUCE, data, data, op, 0));
    }

    default Work allReduce(long[] in, long[] out, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_REDUCE, in, out, op, 0));
    }

    default Work reduceScatter(long[] in, long[] out, ReduceOp op) {
        return arrays(new ArrayCall(ArrayCall.Kind.REDUCE_SCATTER, in, out, op, 0));
    }

    default Work allGather(long[] in, long[] out) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_GATHER, in, out, null, 0));
    }

    default Work broadcast(long[] data, int root) {
        return arrays(new ArrayCall(ArrayCall.Kind.BROADCAST, data, data, null, root));
    }

    default Work reduce(long[] in, long[] out, ReduceOp op, int root) {
        return arrays(new ArrayCall(ArrayCall.Kind.REDUCE, in, out, op, root));
    }

    default Work allToAll(long[] in, long[] out) {
        return arrays(new ArrayCall(ArrayCall.Kind.ALL_TO_ALL, in, out, null, 0));
    }

    default Work send(long[] data, int peer) {
        return arrays(new ArrayCall(ArrayCall.Kind.SEND, data, null, null, peer));
    }

    default Work recv(long[] data, int peer) {
        return arrays(new ArrayCall(ArrayCall.Kind.RECV, null, data, null, peer));
    }
}
