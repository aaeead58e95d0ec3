package dev.jccl.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Text resources of the command's jar, and the charting library its HTML reports inline (Apache ECharts, from its WebJar). */
public final class Resources {
    private Resources() {}

    public static final String ECHARTS = "/META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js";

    public static String text(String name) {
        try (InputStream in = Resources.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("missing resource " + name + " on the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** ECharts, safe to place inside a script element (a "</script" in it would end the element early). */
    public static String echartsForScriptElement() {
        return text(ECHARTS).replace("</script", "<\\/script");
    }
}
