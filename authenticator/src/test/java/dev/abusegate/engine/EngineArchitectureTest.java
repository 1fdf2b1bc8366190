package dev.abusegate.engine;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.abusegate.engine.config.GateOptions;
import dev.abusegate.engine.keys.Attempt;
import dev.abusegate.engine.keys.DeviceTokens;
import dev.abusegate.engine.keys.Hmac;
import dev.abusegate.engine.config.RealmSettings;
import dev.abusegate.engine.time.TimeSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering, as ArchUnit rules over the compiled provider classes (every type a class names: fields, signatures,
 * calls, annotations, generics):
 * <ul>
 *   <li>the engine is plain Java: no Keycloak, Infinispan, Micrometer, Jakarta or JBoss types;</li>
 *   <li>no import circles between packages: between the top-level parts, inside the engine, inside the Keycloak
 *       side;</li>
 *   <li>a gated step reaches the engine only through its entry points ({@link #ENGINE_ENTRY_POINTS}), never its
 *       store.</li>
 * </ul>
 */
class EngineArchitectureTest {

    static final String[] FRAMEWORKS = {"org.keycloak..", "org.infinispan..", "io.micrometer..", "jakarta..", "org.jboss.."};

    /**
     * What a gated step may use of the engine: its top-level package (the gate, the decision, outcomes), the settings
     * it is configured with and the layers' names ({@code config}), an {@link Attempt}, the clock, and the
     * device-cookie token with the keyed hash it and a wrong password's tag are built from. Nothing of the store,
     * nothing else of {@code keys} or {@code realm}.
     */
    static final Set<Class<?>> ENGINE_ENTRY_POINT_CLASSES = Set.of(RealmSettings.class, DeviceTokens.class, Hmac.class, Attempt.class,
            TimeSource.class);
    static final String[] ENGINE_ENTRY_POINTS = {"dev.abusegate.engine", GateOptions.class.getPackageName()};

    static final ArchRule ENGINE_IS_PLAIN_JAVA = noClasses().that().resideInAPackage("dev.abusegate.engine..")
            .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
            .because("the engine knows nothing of Keycloak: the Keycloak side adapts forms, events and Infinispan to it");

    static final int MAX_ENGINE_LINES = 300;
    static final int MAX_PARAMETERS = 5;

    private static JavaClasses provider;

    @BeforeAll
    static void importTheProvider() {
        provider = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.abusegate");
    }

    @Test
    void the_provider_and_its_engine_are_imported() {
        assertThat(provider.that(resideInAPackage("dev.abusegate.engine.."))).as("engine classes").hasSizeGreaterThanOrEqualTo(15);
        assertThat(provider.that(resideInAPackage("dev.abusegate.keycloak.steps.."))).as("step classes").hasSizeGreaterThanOrEqualTo(10);
        assertThat(provider.contain(AbuseGate.class)).isTrue();
    }

    @Test
    void the_engine_depends_on_no_server_framework() {
        ENGINE_IS_PLAIN_JAVA.check(provider);
    }

    @Test
    void the_rule_would_catch_a_framework_reference() {
        // A test-only class in the engine's package that does touch Jakarta: the same rule must flag it.
        JavaClasses fixture = new ClassFileImporter().importClasses(ArchitectureFixtureUsingJakarta.class);
        assertThat(ENGINE_IS_PLAIN_JAVA.evaluate(fixture).getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains("jakarta.ws.rs.core.Response"));
    }

    /** Bytecode drops an unused import (and annotations kept only in the source): the sources are read too. */
    @Test
    void the_engine_sources_import_no_server_framework() throws IOException {
        Path src = Paths.get("src/main/java/dev/abusegate/engine");
        assertThat(src).isDirectory();
        List<String> prefixes = Stream.of(FRAMEWORKS).map(f -> "import " + f.replace("..", ".")).toList();
        List<String> staticPrefixes = prefixes.stream().map(p -> p.replace("import ", "import static ")).toList();
        List<String> offenders;
        try (Stream<Path> files = Files.walk(src)) {
            offenders = files.filter(f -> f.toString().endsWith(".java")).flatMap(f -> lines(f).stream()
                    .map(String::trim)
                    .filter(l -> Stream.concat(prefixes.stream(), staticPrefixes.stream()).anyMatch(l::startsWith))
                    .map(l -> src.relativize(f) + ": " + l)).toList();
        }
        assertThat(offenders).isEmpty();
    }

    /** One moment, one small class: no engine source over {@value #MAX_ENGINE_LINES} lines. */
    @Test
    void no_engine_class_is_over_300_lines() throws IOException {
        Path src = Paths.get("src/main/java/dev/abusegate/engine");
        List<String> offenders;
        try (Stream<Path> files = Files.walk(src)) {
            offenders = files.filter(f -> f.toString().endsWith(".java")).filter(f -> lines(f).size() > MAX_ENGINE_LINES)
                    .map(f -> src.relativize(f) + ": " + lines(f).size() + " lines").toList();
        }
        assertThat(offenders).isEmpty();
    }

    /** Optional parts are objects, not positional flags: no engine constructor or method takes more than five. */
    @Test
    void no_engine_constructor_or_method_takes_more_than_five_parameters() {
        codeUnits().that().areDeclaredInClassesThat().resideInAPackage("dev.abusegate.engine..")
                .and(describe("written in the source", (JavaCodeUnit u) -> !u.getModifiers().contains(JavaModifier.SYNTHETIC)))
                .should(new ArchCondition<JavaCodeUnit>("take at most " + MAX_PARAMETERS + " parameters") {
                    @Override
                    public void check(JavaCodeUnit unit, ConditionEvents events) {
                        // an enum's constructor has its name and ordinal first, which the source does not write
                        boolean enumConstructor = unit.isConstructor() && unit.getOwner().isEnum();
                        int n = unit.getRawParameterTypes().size() - (enumConstructor ? 2 : 0);
                        events.add(new SimpleConditionEvent(unit, n <= MAX_PARAMETERS,
                                unit.getFullName() + " takes " + n + " parameters"));
                    }
                })
                .check(provider);
    }

    @Test
    void the_top_level_parts_form_no_cycle() {
        slices().matching("dev.abusegate.(*)..").should().beFreeOfCycles().check(provider);
    }

    @Test
    void the_engine_packages_form_no_cycle() {
        slices().matching("dev.abusegate.(**)").should().beFreeOfCycles()
                .check(provider.that(resideInAPackage("dev.abusegate.engine..")));
    }

    @Test
    void the_keycloak_packages_form_no_cycle() {
        slices().matching("dev.abusegate.(**)").should().beFreeOfCycles()
                .check(provider.that(resideInAPackage("dev.abusegate.keycloak..")));
    }

    @Test
    void steps_reach_the_engine_only_through_its_entry_points() {
        noClasses().that().resideInAPackage("dev.abusegate.keycloak.steps..")
                .should().dependOnClassesThat(describe("engine classes outside its entry points",
                        (JavaClass c) -> c.getPackageName().startsWith("dev.abusegate.engine")
                                && !resideInAnyPackage(ENGINE_ENTRY_POINTS).test(c)
                                && ENGINE_ENTRY_POINT_CLASSES.stream().noneMatch(k -> isOrNestsIn(c, k))))
                .check(provider);
    }

    @Test
    void steps_never_touch_the_engine_store() {
        noClasses().that().resideInAPackage("dev.abusegate.keycloak.steps..")
                .should().dependOnClassesThat().resideInAPackage("dev.abusegate.engine.store..")
                .check(provider);
    }

    private static boolean isOrNestsIn(JavaClass c, Class<?> k) {
        return c.getName().equals(k.getName()) || c.getName().startsWith(k.getName() + "$");
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

/** Deliberately references a framework type; used only to prove the rule notices. */
final class ArchitectureFixtureUsingJakarta {
    static Object status() {
        return jakarta.ws.rs.core.Response.Status.OK;
    }
}
