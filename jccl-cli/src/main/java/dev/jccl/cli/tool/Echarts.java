package dev.jccl.cli.tool;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Apache ECharts, the charting library of every report page, read from its WebJar on the class path
 * so that a page inlines it and works offline. One owner of the version and the path.
 */
public final class Echarts {
    public static final String SCRIPT = "/META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js";

    private Echarts() {}

    /** The minified library, safe to put inside a {@code <script>} element. */
    public static String inlineScript() {
        // A "</script" in it would end the element early.
        return resource(SCRIPT).replace("</script", "<\\/script");
    }

    public static String resource(String name) {
        try (InputStream in = Echarts.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("missing resource " + name + " on the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
