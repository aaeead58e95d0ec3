package dev.jccl.arch;

import dev.jccl.Communicator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module's exports are what a client can reach: a small client on the module path compiles
 * against the public API and the SPI, finds both providers through the module's {@code provides},
 * and fails to compile the moment it names an internal package.
 */
@Tag("unit")
class ModuleExportsTest {
    private static Path coreModule;

    @BeforeAll
    static void locateTheCompiledModule() throws URISyntaxException {
        coreModule = Path.of(Communicator.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.exists(coreModule.resolve("module-info.class")), "no module-info.class in " + coreModule);
    }

    @Test
    void aClientOfTheExportsCompilesAndFindsTheProviders(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        List<String> errors = compile(dir, out, """
                package client;

                import dev.jccl.CommOptions;
                import dev.jccl.DataType;
                import dev.jccl.ReduceOp;
                import dev.jccl.bootstrap.MemoryStore;
                import dev.jccl.config.Knobs;
                import dev.jccl.verbs.Providers;
                import dev.jccl.verbs.VerbsProvider;

                public final class Client {
                    public static String providers() {
                        CommOptions.Builder b = CommOptions.builder().rank(0).size(1).store(new MemoryStore());
                        String knob = Knobs.TRANSPORT.name() + " " + DataType.FLOAT32 + " " + ReduceOp.SUM + " " + (b != null);
                        return knob + " " + Providers.all().stream().map(VerbsProvider::name).toList();
                    }
                }
                """);
        assertEquals(List.of(), errors);

        ModuleFinder finder = ModuleFinder.of(coreModule, out);
        ModuleLayer boot = ModuleLayer.boot();
        Configuration cf = boot.configuration().resolveAndBind(finder, ModuleFinder.of(), Set.of("client"));
        ModuleLayer layer = boot.defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
        ClassLoader loader = layer.findLoader("client");
        Thread self = Thread.currentThread();
        ClassLoader before = self.getContextClassLoader();
        self.setContextClassLoader(loader);
        try {
            Object said = loader.loadClass("client.Client").getMethod("providers").invoke(null);
            assertEquals("JCCL_TRANSPORT FLOAT32 SUM true [shm, tcp]", said);
        } finally {
            self.setContextClassLoader(before);
        }
    }

    @Test
    void aClientThatReachesAnInternalPackageDoesNotCompile(@TempDir Path dir) throws Exception {
        for (String internal : List.of("dev.jccl.comm.CommFactory", "dev.jccl.algo.Tuner", "dev.jccl.exec.Link",
                "dev.jccl.reduce.ReduceKernels", "dev.jccl.verbs.base.RegionTable", "dev.jccl.verbs.shm.ShmProvider",
                "dev.jccl.trace.event.CollectiveEvent")) {
            Path src = dir.resolve(internal);
            List<String> errors = compile(src, src.resolve("out"), """
                    package client;

                    public final class Client {
                        static final Class<?> INSIDE = %s.class;
                    }
                    """.formatted(internal));
            String pkg = internal.substring(0, internal.lastIndexOf('.'));
            assertFalse(errors.isEmpty(), internal + " compiled from outside the module");
            assertTrue(errors.stream().anyMatch(e -> e.contains(pkg) && e.contains("does not export")), internal + ": " + errors);
        }
    }

    /** Compiles module "client" (requires dev.jccl) from one class; returns the error messages. */
    private static List<String> compile(Path dir, Path out, String clientSource) throws IOException {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("client"));
        Files.writeString(src.resolve("module-info.java"), "module client { requires dev.jccl; exports client; }\n");
        Files.writeString(src.resolve("client/Client.java"), clientSource);
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
            var units = files.getJavaFileObjects(src.resolve("module-info.java"), src.resolve("client/Client.java"));
            // An empty class path: otherwise javac inherits this JVM's, where every package of core is visible.
            List<String> options = List.of("--module-path", coreModule.toString(), "--class-path", out.toString(),
                    "--add-modules", "jdk.incubator.vector", "-d", out.toString());
            javac.getTask(null, files, diagnostics, options, null, units).call();
        }
        return diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR)
                .map(d -> d.getMessage(null)).toList();
    }
}
