package dev.jccl.algo;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Schedules and the tuner stay pure: no I/O, threads, clocks or transports, and nothing from jccl
 * but this package and {@code util}. Checked on the compiled production classes.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class AlgoPurityTest {
    private static JavaClasses algo;

    @BeforeAll
    static void load() {
        algo = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.jccl.algo");
    }

    @Test
    void dependsOnlyOnItselfUtilAndCoreJavaLanguagePackages() {
        classes().should().onlyDependOnClassesThat().resideInAnyPackage(
                "dev.jccl.algo", "dev.jccl.util", "java.lang", "java.lang.runtime", "java.lang.invoke",
                "java.util", "java.util.function", "java.util.stream").check(algo);
    }

    @Test
    void readsNoClockAndStartsNoThread() {
        noClasses().should().callMethod(System.class, "nanoTime")
                .orShould().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "getenv", String.class)
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .check(algo);
    }
}
