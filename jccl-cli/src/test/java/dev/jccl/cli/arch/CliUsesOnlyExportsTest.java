package dev.jccl.cli.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jccl command is a client of what jccl-core exports (its module-info): the public API, the
 * training helper, the verbs SPI, bootstrap, configuration, trace, the JDK-only util toolbox and the
 * planner. The
 * runtime, executor, schedules, kernels and providers stay the core's own, so the core may change them.
 */
@Tag("unit")
class CliUsesOnlyExportsTest {
    static final List<String> EXPORTED = List.of("dev.jccl", "dev.jccl.ddp", "dev.jccl.verbs", "dev.jccl.bootstrap",
            "dev.jccl.config", "dev.jccl.trace", "dev.jccl.util", "dev.jccl.plan");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        // The cli's classes and the core's, so that every exported package is seen to exist.
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.jccl");
    }

    @Test
    void theCliDependsOnTheCoreOnlyThroughItsExports() {
        String[] allowed = new String[EXPORTED.size() + 1];
        allowed[0] = "dev.jccl.cli..";
        for (int i = 0; i < EXPORTED.size(); i++) allowed[i + 1] = EXPORTED.get(i);
        // Exact packages: an export covers its own package, not those below it (dev.jccl.verbs, not verbs.tcp).
        classes().that().resideInAPackage("dev.jccl.cli..")
                .should().onlyDependOnClassesThat(resideOutsideOfPackage("dev.jccl..").or(resideInAnyPackage(allowed)))
                .check(classes);
    }

    @Test
    void everyPackageTheRuleNamesHoldsClasses() {
        for (String p : EXPORTED) assertHolds(p);
        assertHolds("dev.jccl.cli..");
        // The internal packages the rule keeps out must exist too, or keeping them out proves nothing.
        for (String p : List.of("dev.jccl.comm", "dev.jccl.exec", "dev.jccl.algo", "dev.jccl.reduce", "dev.jccl.verbs.base",
                "dev.jccl.verbs.shm", "dev.jccl.verbs.tcp")) {
            assertHolds(p);
        }
    }

    private static void assertHolds(String pkg) {
        PackageMatcher m = PackageMatcher.of(pkg);
        assertTrue(classes.stream().anyMatch(c -> m.matches(c.getPackageName())),
                "package " + pkg + " holds no class: renamed or removed? update the rule");
    }
}
