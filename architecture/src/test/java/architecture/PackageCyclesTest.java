package architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.List;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.library.freeze.FreezingArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import org.junit.jupiter.api.Test;

/**
 * No new cycles between the top-level packages of each module ({@code kupl.bootstrap}, {@code mpi.rma.internal},
 * {@code conformance.cases}, ...: a module's root package and each package right below it, with what lies under
 * them). The cycles the tree already had when this rule came (the api's facade and its internals share
 * {@code RmaException}; the conformance catalogue and its cases) are frozen in
 * {@code src/test/resources/archunit-frozen}: a new one fails, one that goes away leaves the store.
 */
class PackageCyclesTest
{
    /** The root package of each module's code, the longer first so that {@code mpi.rma.kupl} is not the api's. */
    private static final List<String> ROOTS = List.of("mpi.rma.kupl", "mpi.rma", "xdev.shmdev", "xdev.spi", "kupl",
        "mpjrun", "conformance", "samples", "bench", "faults");

    /** A class's slice: its module's root package, or the package right below the root that holds it. */
    private static final SliceAssignment TOP_LEVEL_PACKAGES = new SliceAssignment()
    {
        @Override
        public SliceIdentifier getIdentifierOf(final JavaClass javaClass)
        {
            final String name = javaClass.getPackageName();
            for (final String root : ROOTS)
            {
                if (name.equals(root))
                {
                    return SliceIdentifier.of(root);
                }
                if (name.startsWith(root + "."))
                {
                    final String below = name.substring(root.length() + 1);
                    final int dot = below.indexOf('.');
                    return SliceIdentifier.of(root + "." + (dot < 0 ? below : below.substring(0, dot)));
                }
            }
            return SliceIdentifier.ignore();
        }

        @Override
        public String getDescription()
        {
            return "the top-level packages of each module";
        }
    };

    @Test
    void shouldAddNoCycleBetweenTopLevelPackages()
    {
        FreezingArchRule.freeze(slices().assignedFrom(TOP_LEVEL_PACKAGES).should().beFreeOfCycles()
            .because("a cycle between packages cannot be understood, tested or moved one side at a time: move what "
                + "both sides need into the lower package, or pass it in as an interface the lower one defines"))
            .check(ProjectClasses.all());
    }
}
