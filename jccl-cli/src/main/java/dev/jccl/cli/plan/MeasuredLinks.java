package dev.jccl.cli.plan;

import dev.jccl.plan.LinkSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The {@code --measured} file: one CSV line per link with its measured latency (alpha, us) and
 * bandwidth (1/beta, GB/s); '#' starts a comment and a header line is allowed:
 * <pre>
 * link,alpha_us,bandwidth_GBps
 * intra,2.1,9.8
 * inter,28.0,1.17
 * reduce,,6.5
 * </pre>
 * {@code reduce} gives the reduction speed (its alpha is ignored). Any line may be missing.
 */
record MeasuredLinks(Optional<LinkSpec> intra, Optional<LinkSpec> inter, OptionalDouble reduceGBps) {
    static MeasuredLinks read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("--measured: no such file " + file);
        return parse(file.toString(), Files.readAllLines(file));
    }

    static MeasuredLinks parse(String source, List<String> lines) {
        Optional<LinkSpec> intra = Optional.empty();
        Optional<LinkSpec> inter = Optional.empty();
        OptionalDouble reduce = OptionalDouble.empty();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceAll("#.*", "").trim();
            if (line.isEmpty() || line.toLowerCase(Locale.ROOT).startsWith("link,")) continue;
            String where = "--measured " + source + " line " + (i + 1) + ": ";
            String[] f = line.split(",", -1);
            if (f.length != 3) throw new IllegalArgumentException(where + "expected link,alpha_us,bandwidth_GBps, got '" + line + "'");
            double bw = number(where, f[2]);
            switch (f[0].trim().toLowerCase(Locale.ROOT)) {
                case "intra" -> intra = Optional.of(link(where, "measured-intra", f[1], bw));
                case "inter" -> inter = Optional.of(link(where, "measured-inter", f[1], bw));
                case "reduce" -> reduce = OptionalDouble.of(positive(where, bw));
                default -> throw new IllegalArgumentException(where + "unknown link '" + f[0].trim() + "'; expected intra, inter or reduce");
            }
        }
        return new MeasuredLinks(intra, inter, reduce);
    }

    private static LinkSpec link(String where, String name, String alphaUs, double bw) {
        double alpha = number(where, alphaUs);
        if (alpha < 0) throw new IllegalArgumentException(where + "alpha must be >= 0 us, got " + alpha);
        return new LinkSpec(name, positive(where, bw), Math.round(alpha * 1e3), 200);
    }

    private static double positive(String where, double bw) {
        if (!(bw > 0) || Double.isInfinite(bw)) throw new IllegalArgumentException(where + "bandwidth must be > 0 GB/s, got " + bw);
        return bw;
    }

    private static double number(String where, String text) {
        try {
            return Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(where + "not a number: '" + text.trim() + "'");
        }
    }
}
