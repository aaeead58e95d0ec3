package dev.jccl.fuzz;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Turns a well-formed input into a malformed one the way a fuzzer does: flipped bits, a length or
 * offset field overwritten with an extreme value, cut short, grown, or replaced by noise. Every
 * choice comes from the caller's seeded random, so a failing case replays from its seed.
 */
public final class Mutator {
    /** Values that break length, index and offset checks: signs, limits, powers of two and their neighbours. */
    private static final long[] EXTREMES = {0, 1, -1, -2, -5, 7, 255, 256, 4095, 4096, 65535, 65536, (1 << 20) - 1, 1 << 20,
        (1 << 20) + 1, 1 << 24, 1 << 30, Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFF_FFFFL, 1L << 32, 1L << 40,
        Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 7};

    private final SplittableRandom random;
    private final ByteOrder order;

    public Mutator(SplittableRandom random, ByteOrder order) {
        this.random = random;
        this.order = order;
    }

    public SplittableRandom random() {
        return random;
    }

    /** One extreme value, or a random one. */
    public long extreme() {
        return random.nextInt(4) == 0 ? random.nextLong() : EXTREMES[random.nextInt(EXTREMES.length)];
    }

    /** {@code n} random bytes. */
    public byte[] noise(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** One to three mutations of a copy of {@code good}; {@code good} itself is untouched. */
    public byte[] mutate(byte[] good) {
        byte[] b = good.clone();
        int rounds = 1 + random.nextInt(3);
        for (int i = 0; i < rounds; i++) b = mutateOnce(b);
        return b;
    }

    private byte[] mutateOnce(byte[] b) {
        switch (random.nextInt(7)) {
            case 0 -> { // flip a few bits
                if (b.length > 0) for (int i = 0; i < 1 + random.nextInt(4); i++) b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
            }
            case 1, 2 -> { // a 4-byte field (a length, a key, an index) gets an extreme value
                if (b.length >= 4) ByteBuffer.wrap(b).order(order).putInt(random.nextInt(b.length - 3), (int) extreme());
            }
            case 3 -> { // an 8-byte field (an offset, an address, a sequence number)
                if (b.length >= 8) ByteBuffer.wrap(b).order(order).putLong(random.nextInt(b.length - 7), extreme());
            }
            case 4 -> b = Arrays.copyOf(b, b.length == 0 ? 0 : random.nextInt(b.length)); // cut short
            case 5 -> { // grown by noise
                byte[] tail = noise(1 + random.nextInt(16));
                byte[] grown = Arrays.copyOf(b, b.length + tail.length);
                System.arraycopy(tail, 0, grown, b.length, tail.length);
                b = grown;
            }
            default -> b = noise(random.nextInt(Math.max(1, b.length * 2))); // noise of about the same size
        }
        return b;
    }
}
