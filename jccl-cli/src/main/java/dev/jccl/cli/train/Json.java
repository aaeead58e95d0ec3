package dev.jccl.cli.train;

import java.util.List;
import java.util.Locale;

/** A JSON object written field by field: just what the report's data needs. */
final class Json {
    private final StringBuilder sb = new StringBuilder("{");

    Json field(String name, String value) {
        return raw(name, quote(value));
    }

    Json strings(String name, List<String> values) {
        StringBuilder a = new StringBuilder("[");
        for (String v : values) a.append(a.length() > 1 ? "," : "").append(quote(v));
        return raw(name, a.append(']').toString());
    }

    Json numbers(String name, double[] values, int decimals) {
        StringBuilder a = new StringBuilder("[");
        for (double v : values) {
            a.append(a.length() > 1 ? "," : "");
            a.append(Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "null");
        }
        return raw(name, a.append(']').toString());
    }

    Json raw(String name, String json) {
        if (sb.length() > 1) sb.append(',');
        sb.append(quote(name)).append(':').append(json);
        return this;
    }

    String close() {
        return sb.append('}').toString();
    }

    static String quote(String s) {
        StringBuilder q = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                case '\r' -> q.append("\\r");
                case '\t' -> q.append("\\t");
                // "</" inside a script element would close it; "<\/" means the same to JSON.
                case '/' -> q.append(i > 0 && s.charAt(i - 1) == '<' ? "\\/" : "/");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) q.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else q.append(c);
                }
            }
        }
        return q.append('"').toString();
    }
}
