package dev.jccl.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The one JSON writer of jccl and its tools: streams objects and arrays into an {@link Appendable}
 * (a {@code StringBuilder}, or a {@code Writer} for a document too long to hold as one string) and
 * places the commas itself. Numbers are written with {@link Locale#ROOT}; a double that is not finite
 * becomes {@code null}, as JSON has no NaN. Strings are escaped so that the text may also sit inside an
 * HTML {@code <script>} element: {@code </} is written {@code <\/} and U+2028/U+2029 as escapes, which
 * mean the same to a JSON reader. Not thread-safe; an {@code IOException} of the target surfaces as
 * {@link UncheckedIOException}.
 */
public final class JsonWriter {
    /** One open object or array: whether a comma is due before the next member, and the layout. */
    private static final class Open {
        boolean empty = true;
        final boolean linePerElement;

        Open(boolean linePerElement) {
            this.linePerElement = linePerElement;
        }
    }

    private final Appendable out;
    private final Deque<Open> open = new ArrayDeque<>();
    private boolean afterName;

    public JsonWriter(Appendable out) {
        this.out = out;
    }

    public JsonWriter beginObject() {
        beforeValue();
        open.push(new Open(false));
        return write("{");
    }

    public JsonWriter endObject() {
        open.pop();
        return write("}");
    }

    public JsonWriter beginArray() {
        beforeValue();
        open.push(new Open(false));
        return write("[");
    }

    /** An array that puts each element on a line of its own (a trace of many events stays readable in an editor). */
    public JsonWriter beginArrayLinePerElement() {
        beforeValue();
        open.push(new Open(true));
        return write("[");
    }

    public JsonWriter endArray() {
        return write(open.pop().linePerElement ? "\n]" : "]");
    }

    /** The name of the next member of the open object; its value follows. */
    public JsonWriter name(String name) {
        beforeValue();
        afterName = true;
        return write(quote(name)).write(":");
    }

    public JsonWriter value(String s) {
        beforeValue();
        return write(quote(s));
    }

    public JsonWriter value(boolean b) {
        beforeValue();
        return write(b ? "true" : "false");
    }

    public JsonWriter value(long v) {
        beforeValue();
        return write(Long.toString(v));
    }

    /** {@code v} with exactly {@code decimals} digits after the point; {@code null} if it is not finite. */
    public JsonWriter value(double v, int decimals) {
        beforeValue();
        return write(Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "null");
    }

    public JsonWriter nullValue() {
        beforeValue();
        return write("null");
    }

    /** Text in JSON's string syntax, quotes included; see the class comment for what is escaped. */
    public static String quote(String s) {
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

    /** A comma before every member or element but the first; none between a name and its value. */
    private void beforeValue() {
        if (afterName) {
            afterName = false;
            return;
        }
        Open o = open.peek();
        if (o == null) return;
        if (!o.empty) write(",");
        o.empty = false;
        if (o.linePerElement) write("\n");
    }

    private JsonWriter write(String text) {
        try {
            out.append(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }
}
