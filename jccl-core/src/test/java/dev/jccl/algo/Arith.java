package dev.jccl.algo;

import java.util.SplittableRandom;

/**
 * Element arithmetic of the simulators: values are 64-bit patterns, read either as longs or as
 * doubles, and reduced with sum. Double sums depend on the order of additions, which is what lets a
 * test tell two reduction orders apart; sums of two operands are commutative, so only the grouping
 * matters. {@link #LONG_ORDERED} does not commute, so it also tells which operand came first.
 */
enum Arith {
    LONG_SUM {
        @Override long combine(long operand, long incoming) {
            return operand + incoming;
        }

        @Override long sample(SplittableRandom random) {
            return random.nextLong();
        }
    },
    DOUBLE_SUM {
        @Override long combine(long operand, long incoming) {
            return Double.doubleToRawLongBits(Double.longBitsToDouble(operand) + Double.longBitsToDouble(incoming));
        }

        @Override long sample(SplittableRandom random) {
            // Full mantissas over a few binades: regrouping a sum of six such values changes its bits
            // about 40% of the time, so over tens of elements a wrong order is all but certain to show.
            double v = (random.nextDouble() - 0.5) * Math.scalb(1.0, random.nextInt(-4, 5));
            return Double.doubleToRawLongBits(v);
        }
    },
    /**
     * 3·operand + incoming, wrapping: a reduction whose bits depend on which operand comes first
     * (as a float sum may, when both operands are NaNs with different payloads and the kernel keeps
     * one of them). Only a schedule that applies exactly the documented operand order matches the
     * reference, and only schedules whose ranks agree on it give every rank the same bits.
     */
    LONG_ORDERED {
        @Override long combine(long operand, long incoming) {
            return 3 * operand + incoming;
        }

        @Override long sample(SplittableRandom random) {
            return random.nextLong();
        }
    };

    abstract long combine(long operand, long incoming);

    abstract long sample(SplittableRandom random);

    String show(long bits) {
        return this == LONG_SUM ? Long.toString(bits) : Double.toString(Double.longBitsToDouble(bits));
    }
}
