package dev.jccl.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps the package rules of docs/ARCHITECTURE.md true over the compiled classes. No rule may pass
 * vacuously: ArchUnit fails a rule whose subject is empty (no rule here turns that off), and every
 * package a rule names, subject or target, must hold classes ({@link ExistingPackages}).
 */
@Tag("unit")
class LayeringTest {
    private static JavaClasses core;
    private static ExistingPackages pkg;

    @BeforeAll
    static void importClasses() {
        core = CoreClasses.get();
        pkg = new ExistingPackages(core);
    }

    @Test
    void utilDependsOnTheJdkOnly() {
        classes().that().resideInAPackage(pkg.one("dev.jccl.util.."))
                .should().onlyDependOnClassesThat().resideInAnyPackage(pkg.of("dev.jccl.util..", "java..", "javax..", "jdk.."))
                .check(core);
    }

    @Test
    void configAndTraceSitLowInTheStack() {
        classes().that().resideInAPackage(pkg.one("dev.jccl.config.."))
                .should().onlyDependOnClassesThat().resideInAnyPackage(pkg.of("dev.jccl.config..", "dev.jccl.util..", "java.."))
                .check(core);
        classes().that().resideInAPackage(pkg.one("dev.jccl.trace.."))
                .should().onlyDependOnClassesThat().resideInAnyPackage(pkg.of("dev.jccl.trace..", "dev.jccl.config..",
                        "dev.jccl.util..", "java..", "jdk.jfr.."))
                .check(core);
    }

    @Test
    void theVerbsSpiAndSharedCodeNeverNameAProvider() {
        noClasses().that().resideInAnyPackage(pkg.of("dev.jccl.verbs", "dev.jccl.verbs.base"))
                .should().dependOnClassesThat().resideInAnyPackage(pkg.of("dev.jccl.verbs.shm..", "dev.jccl.verbs.tcp.."))
                .check(core);
    }

    @Test
    void providersNeverImportEachOther() {
        noClasses().that().resideInAPackage(pkg.one("dev.jccl.verbs.shm.."))
                .should().dependOnClassesThat().resideInAPackage(pkg.one("dev.jccl.verbs.tcp.."))
                .check(core);
        noClasses().that().resideInAPackage(pkg.one("dev.jccl.verbs.tcp.."))
                .should().dependOnClassesThat().resideInAPackage(pkg.one("dev.jccl.verbs.shm.."))
                .check(core);
    }

    @Test
    void nothingOutsideAProviderNamesIt() {
        noClasses().that().resideOutsideOfPackages(pkg.of("dev.jccl.verbs.shm.."))
                .should().dependOnClassesThat().resideInAPackage(pkg.one("dev.jccl.verbs.shm.."))
                .check(core);
        noClasses().that().resideOutsideOfPackages(pkg.of("dev.jccl.verbs.tcp.."))
                .should().dependOnClassesThat().resideInAPackage(pkg.one("dev.jccl.verbs.tcp.."))
                .check(core);
    }

    @Test
    void verbsDependOnlyOnLowerLayers() {
        classes().that().resideInAPackage(pkg.one("dev.jccl.verbs.."))
                .should().onlyDependOnClassesThat().resideInAnyPackage(pkg.of("dev.jccl.verbs..", "dev.jccl.util..",
                        "dev.jccl.config..", "dev.jccl.trace..", "java..", "javax..", "jdk.."))
                .check(core);
    }

    @Test
    void algorithmsAndKernelsArePure() {
        noClasses().that().resideInAnyPackage(pkg.of("dev.jccl.algo..", "dev.jccl.reduce.."))
                .should().dependOnClassesThat().resideInAnyPackage(pkg.of("dev.jccl.verbs..", "dev.jccl.bootstrap..",
                        "dev.jccl.trace..", "java.net..", "java.nio.channels..", "java.lang.Thread",
                        "java.util.concurrent.."))
                .check(core);
    }

    @Test
    void thePlannerSitsOnTheSchedulesAndNothingInTheCoreUsesIt() {
        // plan -> algo, never back: the planner prices and simulates the schedules; the runtime never asks it.
        classes().that().resideInAPackage(pkg.one("dev.jccl.plan.."))
                .should().onlyDependOnClassesThat().resideInAnyPackage(pkg.of("dev.jccl.plan..", "dev.jccl.algo..", "dev.jccl.util..", "java.."))
                .check(core);
        noClasses().that().resideOutsideOfPackages(pkg.of("dev.jccl.plan.."))
                .should().dependOnClassesThat().resideInAPackage(pkg.one("dev.jccl.plan.."))
                .check(core);
    }

    @Test
    void bootstrapNeverReachesIntoProvidersOrCollectives() {
        noClasses().that().resideInAPackage(pkg.one("dev.jccl.bootstrap.."))
                .should().dependOnClassesThat().resideInAnyPackage(pkg.of("dev.jccl.verbs.base..", "dev.jccl.verbs.shm..",
                        "dev.jccl.verbs.tcp..", "dev.jccl.algo..", "dev.jccl.reduce.."))
                .check(core);
    }

    @Test
    void dataParallelismIsAClientOfThePublicApi() {
        classes().that().resideInAPackage(pkg.one("dev.jccl.ddp.."))
                .should().onlyDependOnClassesThat().resideInAnyPackage(pkg.of("dev.jccl", "dev.jccl.ddp..", "dev.jccl.trace..",
                        "dev.jccl.util..", "java.."))
                .check(core);
    }

    @Test
    void aRuleOverAPackageThatIsGoneFails() {
        AssertionError named = assertThrows(AssertionError.class, () -> pkg.of("dev.jccl.util..", "dev.jccl.renamed.."));
        assertTrue(named.getMessage().contains("dev.jccl.renamed.."), named.getMessage());
        // Without ExistingPackages, ArchUnit itself must refuse an empty subject (no allowEmptyShould anywhere).
        assertThrows(AssertionError.class, () -> noClasses().that().resideInAPackage("dev.jccl.renamed..")
                .should().dependOnClassesThat().resideInAPackage("dev.jccl.comm..").check(core));
    }
}
