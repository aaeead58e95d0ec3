package dev.jccl.cli.itest;

import org.junit.jupiter.api.Assumptions;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Loads a {@code --report} page in headless Chromium (the Debian package) the way a person opens
 * it: no console message or script error, every chart drawn (the page counts them), and a
 * screenshot that is not blank. Skips, saying so on stderr, where Chromium is not installed.
 */
final class ReportPages {
    private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync");
    private static final long LIMIT_S = 90;

    private ReportPages() {}

    static String chromium() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser")) {
                if (Files.isExecutable(Path.of(dir, name))) return Path.of(dir, name).toString();
            }
        }
        return null;
    }

    /** Checks {@code page} and that it drew {@code charts} charts; work files go under {@code dir}. */
    static void check(Path page, int charts, Path dir) throws Exception {
        String chromium = chromium();
        if (chromium == null) {
            System.err.println("SKIPPED: report page check of " + page + ": chromium is not installed (apt-get install chromium)");
            Assumptions.abort("chromium is not installed (apt-get install chromium); the report page was not loaded");
        }
        String url = page.toUri().toString();
        Path dom = dir.resolve(page.getFileName() + ".dom.html");
        Path log = dir.resolve(page.getFileName() + ".log");
        run(chromium, dir.resolve("profile-dom"), List.of("--enable-logging=stderr", "--log-level=0", "--virtual-time-budget=8000",
                "--dump-dom", url), dom, log);
        String html = Files.readString(dom);
        List<String> console = Files.readAllLines(log).stream().filter(l -> l.contains(":CONSOLE")).toList();
        assertEquals(List.of(), console, "console messages on " + page);
        assertTrue(!html.contains("data-errors="), "script errors on " + page + ": " + errors(html));
        Matcher m = Pattern.compile("data-charts-drawn=\"(\\d+)\"").matcher(html);
        assertTrue(m.find(), "the page's script did not finish on " + page);
        assertEquals(charts, Integer.parseInt(m.group(1)), "charts drawn on " + page);
        assertTrue(count(html, "<canvas") >= charts, "every chart has its canvas on " + page);
        Path png = dir.resolve(page.getFileName() + ".png");
        run(chromium, dir.resolve("profile-shot"), List.of("--window-size=1200,1400", "--virtual-time-budget=8000", "--hide-scrollbars",
                "--screenshot=" + png, url), dir.resolve("shot.out"), dir.resolve("shot.log"));
        assertNotBlank(png);
    }

    private static void run(String chromium, Path profile, List<String> args, Path out, Path err) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(chromium));
        cmd.addAll(FLAGS);
        cmd.add("--user-data-dir=" + profile);
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(LIMIT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("chromium did not finish within " + LIMIT_S + " s: " + cmd);
        }
        assertEquals(0, p.exitValue(), "chromium failed: " + cmd + "\n" + Files.readString(err));
    }

    /** Not blank: a few percent of the pixels are not white, in more than a handful of colours (text alone is grey). */
    static void assertNotBlank(Path png) throws Exception {
        BufferedImage img = ImageIO.read(png.toFile());
        assertTrue(img != null, "no image in " + png);
        long inked = 0;
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y) & 0xFFFFFF;
                if (rgb != 0xFFFFFF) inked++;
                if (colours.size() < 1000) colours.add(rgb);
            }
        }
        double share = inked / (img.getWidth() * img.getHeight() / 4.0);
        assertTrue(share > 0.01, "screenshot " + png + " is blank: " + share * 100 + "% of pixels inked");
        assertTrue(colours.size() > 20, "screenshot " + png + " has only " + colours.size() + " colours: no chart drawn");
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }

    private static String errors(String html) {
        int i = html.indexOf("data-errors=");
        return i < 0 ? "" : html.substring(i, Math.min(html.length(), i + 300));
    }
}
