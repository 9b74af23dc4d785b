package architecture;

import com.tngtech.archunit.library.freeze.ViolationLineMatcher;

/**
 * How a frozen cycle is recognised ({@code freeze.lineMatcher} in archunit.properties): by its chain of slices
 * alone, not by the dependencies listed under it, so that one more call along a known cycle (an internal class
 * throwing the facade's {@code RmaException}, say) is not taken for a new cycle; a new chain still fails.
 */
public final class CycleMatcher implements ViolationLineMatcher
{
    /** Where ArchUnit's description of a cycle turns from its chain of slices to their dependencies. */
    private static final String DETAILS = "1. Dependencies of";

    @Override
    public boolean matches(final String frozen, final String found)
    {
        return chain(frozen).equals(chain(found));
    }

    /** The violation up to its dependencies, with line breaks and indentation as one space. */
    private static String chain(final String violation)
    {
        final int details = violation.indexOf(DETAILS);
        return (details < 0 ? violation : violation.substring(0, details)).replaceAll("[\\s\\\\]+", " ").strip();
    }
}
