package dev.jccl.comm;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * One rank's side of the correctness checks: runs a collective on exact data, compares the result
 * with the reference every rank computes for itself, and keeps a CRC of every result that must be
 * the same on all ranks. Failures are collected as text, so one run reports all of them.
 */
final class Verify {
    final Communicator comm;
    final int rank;
    final int n;
    final List<String> errors = new ArrayList<>();
    /** CRCs of results that every rank must hold identically, in call order. */
    final List<Long> shared = new ArrayList<>();
    private int salt;

    Verify(Communicator comm) {
        this.comm = comm;
        this.rank = comm.rank();
        this.n = comm.size();
    }

    private MemorySegment[] inputs(DataType t, long count, ReduceOp op) {
        MemorySegment[] in = new MemorySegment[n];
        for (int r = 0; r < n; r++) in[r] = Data.exactInput(t, count, r, salt, op);
        return in;
    }

    private void check(String what, MemorySegment got, MemorySegment want, long bytes) {
        long d = Data.firstDifference(got, want, bytes);
        if (d >= 0) errors.add("rank " + rank + " " + what + ": first wrong byte " + d + " of " + bytes);
    }

    void allReduce(DataType t, ReduceOp op, long count, boolean inPlace) {
        salt++;
        long bytes = t.bytes(count);
        MemorySegment[] in = inputs(t, count, op);
        MemorySegment want = Data.reduce(t, op, in, 0, count);
        MemorySegment out = inPlace ? in[rank] : Data.alloc(bytes);
        comm.allReduce(in[rank], out, count, t, op).await();
        check("allReduce " + t + " " + op + " count " + count + (inPlace ? " in place" : ""), out, want, bytes);
        shared.add(Data.crc(out, bytes));
    }

    void reduceScatter(DataType t, ReduceOp op, long count, boolean inPlace) {
        salt++;
        long bytes = t.bytes(count);
        MemorySegment[] in = inputs(t, count * n, op);
        MemorySegment want = Data.reduce(t, op, in, count * rank, count);
        if (inPlace) {
            comm.reduceScatter(in[rank], count, t, op).await();
            check("reduceScatter in place " + t + " " + op + " count " + count, in[rank].asSlice(bytes * rank), want, bytes);
        } else {
            MemorySegment out = Data.alloc(bytes);
            comm.reduceScatter(in[rank], out, count, t, op).await();
            check("reduceScatter " + t + " " + op + " count " + count, out, want, bytes);
        }
    }

    void allGather(DataType t, long count, boolean inPlace) {
        salt++;
        long bytes = t.bytes(count);
        MemorySegment[] in = inputs(t, count, ReduceOp.SUM);
        MemorySegment want = Data.alloc(bytes * n);
        for (int r = 0; r < n; r++) MemorySegment.copy(in[r], 0, want, r * bytes, bytes);
        MemorySegment out = Data.alloc(bytes * n);
        if (inPlace) {
            MemorySegment.copy(in[rank], 0, out, rank * bytes, bytes);
            comm.allGather(out, count, t).await();
        } else {
            comm.allGather(in[rank], out, count, t).await();
        }
        check("allGather " + t + " count " + count + (inPlace ? " in place" : ""), out, want, bytes * n);
        shared.add(Data.crc(out, bytes * n));
    }

    void broadcast(DataType t, long count, int root, boolean inPlace) {
        salt++;
        long bytes = t.bytes(count);
        MemorySegment[] in = inputs(t, count, ReduceOp.SUM);
        MemorySegment out = inPlace ? (rank == root ? in[rank] : Data.alloc(bytes)) : Data.alloc(bytes);
        comm.broadcast(rank == root ? in[rank] : null, out, count, t, root).await();
        check("broadcast root " + root + " " + t + " count " + count + (inPlace ? " in place" : ""), out, in[root], bytes);
        shared.add(Data.crc(out, bytes));
    }

    void reduce(DataType t, ReduceOp op, long count, int root, boolean inPlace) {
        salt++;
        long bytes = t.bytes(count);
        MemorySegment[] in = inputs(t, count, op);
        MemorySegment want = Data.reduce(t, op, in, 0, count);
        MemorySegment out = rank != root ? null : inPlace ? in[rank] : Data.alloc(bytes);
        comm.reduce(in[rank], out, count, t, op, root).await();
        if (rank == root) check("reduce root " + root + " " + t + " " + op + " count " + count + (inPlace ? " in place" : ""), out, want, bytes);
    }

    void allToAll(DataType t, long count, boolean inPlace) {
        salt++;
        long bytes = t.bytes(count);
        MemorySegment[] in = inputs(t, count * n, ReduceOp.SUM);
        MemorySegment want = Data.alloc(bytes * n);
        for (int r = 0; r < n; r++) MemorySegment.copy(in[r], rank * bytes, want, r * bytes, bytes);
        MemorySegment out = inPlace ? in[rank] : Data.alloc(bytes * n);
        comm.allToAll(in[rank], out, count, t).await();
        check("allToAll " + t + " count " + count + (inPlace ? " in place" : ""), out, want, bytes * n);
    }

    /** Each rank sends to the next and receives from the previous; even ranks send first. */
    void sendRecvRing(DataType t, long count) {
        salt++;
        if (n == 1) return;
        long bytes = t.bytes(count);
        MemorySegment[] in = inputs(t, count, ReduceOp.SUM);
        MemorySegment got = Data.alloc(bytes);
        int next = (rank + 1) % n;
        int prev = (rank + n - 1) % n;
        if (rank % 2 == 0) {
            comm.send(in[rank], count, t, next);
            comm.recv(got, count, t, prev).await();
        } else {
            comm.recv(got, count, t, prev);
            comm.send(in[rank], count, t, next).await();
        }
        check("recv from " + prev + " " + t + " count " + count, got, in[prev], bytes);
    }

    /**
     * allReduce SUM of random floats, whose sum depends on the order of additions: every rank must
     * hold the same bits (kept for the cross-rank check), and every element must lie within
     * n · 2^-23 · Σ|x| of the exact (double) sum, a bound on n-1 float additions in any order.
     */
    void randomFloatAllReduce(long count, boolean inPlace) {
        salt++;
        MemorySegment[] in = new MemorySegment[n];
        for (int r = 0; r < n; r++) in[r] = Data.randomFloats(count, r, salt);
        MemorySegment out = inPlace ? in[rank] : Data.alloc(4 * count);
        MemorySegment mine = Data.alloc(4 * count);
        MemorySegment.copy(in[rank], 0, mine, 0, 4 * count);
        in[rank] = mine;
        comm.allReduce(inPlace ? out : mine, out, count, DataType.FLOAT32, ReduceOp.SUM).await();
        for (long i = 0; i < count; i++) {
            double exact = 0;
            double abs = 0;
            for (int r = 0; r < n; r++) {
                float x = in[r].getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i);
                exact += x;
                abs += Math.abs(x);
            }
            float got = out.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i);
            if (Math.abs(got - exact) > n * Math.scalb(abs, -23)) {
                errors.add("rank " + rank + " random allReduce count " + count + ": element " + i + " is " + got + ", exact " + exact);
                break;
            }
        }
        shared.add(Data.crc(out, 4 * count));
    }

    /** Every collective in and out of place at {@code count}, on exact data of {@code t}. */
    void everyCollective(DataType t, ReduceOp op, long count) {
        for (boolean inPlace : new boolean[] {false, true}) {
            allReduce(t, op, count, inPlace);
            reduceScatter(t, op, count, inPlace);
            allGather(t, count, inPlace);
            broadcast(t, count, (int) (count % n), inPlace);
            reduce(t, op, count, n - 1 - (int) (count % n), inPlace);
            allToAll(t, count, inPlace);
        }
        sendRecvRing(t, count);
        comm.barrier().await();
    }
}
