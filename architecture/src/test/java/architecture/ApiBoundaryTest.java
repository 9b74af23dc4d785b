package architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.junit.jupiter.api.Test;

/**
 * The api's inside: {@code mpi.rma.internal} is its own (module-info does not export it), the machinery does not
 * reach up into the facade, and the vocabulary the facade re-exports is a leaf. Javadoc-only imports, which no
 * class file records, are left to the api's {@code LayeringTest}.
 */
class ApiBoundaryTest
{
    @Test
    void shouldKeepTheApisInternalsToTheApi()
    {
        noClasses().that().resideOutsideOfPackage("mpi.rma..")
            .or().resideInAnyPackage("mpi.rma.kupl..", "mpi.rma.message..")
            .should().dependOnClassesThat().resideInAPackage("mpi.rma.internal..")
            .because("mpi.rma.internal is not exported by the api's module-info: use what mpi.rma.spi.common offers, "
                + "or move what you need there")
            .check(ProjectClasses.all());
    }

    @Test
    void shouldKeepTheFacadeOutOfTheInternalClasses()
    {
        noClasses().that().resideInAPackage("mpi.rma.internal..")
            .should().dependOnClassesThat().haveFullyQualifiedName("mpi.rma.Win")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("mpi.rma.WinRequest")
            .because("the window's machinery sits below the facade: use the names in mpi.rma.internal.vocabulary, "
                + "which Win re-exports, and hand results up instead of calling Win")
            .check(ProjectClasses.all());
    }

    @Test
    void shouldKeepTheVocabularyALeaf()
    {
        classes().that().resideInAPackage("mpi.rma.internal.vocabulary..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "mpi", "mpi.rma.internal.vocabulary..")
            .because("the vocabulary (assertion bits, flavours, memory models, REPLACE, NO_OP) is what every layer "
                + "of the api names: it depends on nothing but the JDK and MPJ Express's mpi.Op, so that any layer may use it")
            .check(ProjectClasses.all());
    }
}
