package dev.jccl.cli.itest;

import dev.jccl.testkit.PrivateShmDir;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Temporary directories on tmpfs (/dev/shm) where there is one, as JCCL_SHM_DIR expects. */
public final class ShmTempDirs implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
        return Files.createTempDirectory(PrivateShmDir.root(), "jccl-itest-");
    }
}
