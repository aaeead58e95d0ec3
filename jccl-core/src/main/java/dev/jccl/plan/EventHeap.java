package dev.jccl.plan;

import java.util.Arrays;

/**
 * A binary min-heap of (time, payload) in two primitive arrays: the simulator's event queue, which
 * holds millions of events and should not allocate one object each. Events at equal times may come
 * out in any order; the simulator's events commute (counts go up), so that is safe.
 */
final class EventHeap {
    private double[] time = new double[1024];
    private long[] payload = new long[1024];
    private int size;

    void push(double t, long p) {
        if (size == time.length) {
            time = Arrays.copyOf(time, size * 2);
            payload = Arrays.copyOf(payload, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (time[parent] <= t) break;
            time[i] = time[parent];
            payload[i] = payload[parent];
            i = parent;
        }
        time[i] = t;
        payload[i] = p;
    }

    boolean isEmpty() {
        return size == 0;
    }

    double peekTime() {
        return time[0];
    }

    /** Removes the earliest event and returns its payload ({@link #peekTime} first for its time). */
    long pop() {
        long top = payload[0];
        double t = time[--size];
        long p = payload[size];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) break;
            if (child + 1 < size && time[child + 1] < time[child]) child++;
            if (t <= time[child]) break;
            time[i] = time[child];
            payload[i] = payload[child];
            i = child;
        }
        time[i] = t;
        payload[i] = p;
        return top;
    }
}
