package dev.jccl.cli.plan;

import java.util.Locale;

/** Parameter counts as people write them: 7B, 1.3B, 350M, 70K, 1T, 7e9, 7000000000 (decimal multiples). */
final class ModelSize {
    private ModelSize() {}

    static long parseParams(String text) {
        String s = text.trim().toUpperCase(Locale.ROOT);
        double mult = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'K' -> mult = 1e3;
                case 'M' -> mult = 1e6;
                case 'B', 'G' -> mult = 1e9;
                case 'T' -> mult = 1e12;
                default -> mult = 1;
            }
        }
        if (mult != 1) s = s.substring(0, s.length() - 1);
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--params: not a parameter count: '" + text + "' (try 7B, 350M, 7e9)");
        }
        double n = v * mult;
        if (!(n >= 1)) throw new IllegalArgumentException("--params must be at least 1, got " + text);
        if (n > 1e15) throw new IllegalArgumentException("--params " + text + " is more than 10^15 parameters");
        return Math.round(n);
    }
}
