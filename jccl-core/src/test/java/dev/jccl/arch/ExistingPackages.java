package dev.jccl.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatcher;

import java.util.Arrays;

/**
 * Keeps a package rule from passing vacuously. A rule over {@code dev.jccl.foo..} whose package was
 * renamed checks nothing ("no class of foo depends on bar" is true of no class), and a forbidden
 * target that moved away is never depended on; so every project package a rule names goes through
 * here first, and a name that matches no imported class fails the test, naming it.
 */
final class ExistingPackages {
    private static final String PROJECT = "dev.jccl";

    private final JavaClasses classes;

    ExistingPackages(JavaClasses classes) {
        this.classes = classes;
    }

    /**
     * Returns {@code identifiers} unchanged after checking that each project package among them
     * (an ArchUnit identifier such as {@code dev.jccl.util..} or {@code dev.jccl}) holds a class.
     * JDK identifiers ({@code java..}) pass through: the import holds only project classes.
     */
    String[] of(String... identifiers) {
        for (String id : identifiers) {
            if (!id.startsWith(PROJECT)) continue;
            PackageMatcher matcher = PackageMatcher.of(id);
            if (classes.stream().noneMatch(c -> matcher.matches(c.getPackageName()))) {
                throw new AssertionError("the rule names package " + id + ", which holds no class (renamed or removed?);"
                        + " a rule over it would pass without checking anything: update the rule. Rule packages: "
                        + Arrays.toString(identifiers));
            }
        }
        return identifiers;
    }

    /** One identifier, checked as {@link #of(String...)} does. */
    String one(String identifier) {
        return of(identifier)[0];
    }
}
