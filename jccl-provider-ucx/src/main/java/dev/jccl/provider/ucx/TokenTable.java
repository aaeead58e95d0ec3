package dev.jccl.provider.ucx;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The Java objects UCX callbacks name by token: an array indexed by token, with freed slots reused.
 * Lookups (from upcalls, on any progressing thread) read without locking and allocate nothing;
 * adding and removing is rare (one per context, endpoint, pooled completion or one-shot request)
 * and synchronised. Token 0 is never handed out, so a NULL {@code user_data} names nothing.
 */
final class TokenTable {
    private volatile AtomicReferenceArray<Object> slots = new AtomicReferenceArray<>(256);
    private int[] free = new int[256]; // guarded by this
    private int freeCount;             // guarded by this
    private int next = 1;              // guarded by this: the lowest slot never handed out

    synchronized long add(Object target) {
        int i;
        if (freeCount > 0) {
            i = free[--freeCount];
        } else {
            i = next++;
            if (i >= slots.length()) grow();
        }
        slots.set(i, target);
        return i;
    }

    Object get(long token) {
        AtomicReferenceArray<Object> s = slots;
        return token <= 0 || token >= s.length() ? null : s.get((int) token);
    }

    synchronized void remove(long token) {
        AtomicReferenceArray<Object> s = slots;
        if (token <= 0 || token >= s.length() || s.get((int) token) == null) return;
        s.set((int) token, null);
        if (freeCount == free.length) free = java.util.Arrays.copyOf(free, free.length * 2);
        free[freeCount++] = (int) token;
    }

    private void grow() {
        AtomicReferenceArray<Object> old = slots;
        AtomicReferenceArray<Object> bigger = new AtomicReferenceArray<>(old.length() * 2);
        for (int k = 0; k < old.length(); k++) bigger.set(k, old.get(k));
        slots = bigger;
    }
}
