package dev.jccl.verbs.tcp;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/** The provider sees only the SPI, the shared provider pieces, util, config, trace and the JDK. */
@Timeout(60)
@Tag("unit")
class TcpArchitectureTest {
    @Test
    void dependsOnlyOnWhatAProviderMay() {
        // Only the package's own class files are needed: names of dependencies suffice, so skip resolving them.
        ArchConfiguration config = ArchConfiguration.get();
        boolean resolve = config.resolveMissingDependenciesFromClassPath();
        JavaClasses tcp;
        try {
            config.setResolveMissingDependenciesFromClassPath(false);
            tcp = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("dev.jccl.verbs.tcp");
        } finally {
            config.setResolveMissingDependenciesFromClassPath(resolve);
        }
        classes().that().resideInAPackage("dev.jccl.verbs.tcp")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.jccl.verbs.tcp", "dev.jccl.verbs",
                        "dev.jccl.verbs.base", "dev.jccl.util", "dev.jccl.config", "dev.jccl.trace", "java..", "javax..",
                        "jdk.net..")
                .check(tcp);
    }
}
