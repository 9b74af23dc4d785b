package conformance;

import java.io.Serializable;

/**
 * What a case does on every rank: checks through the context, and may throw (an error of the case).
 * Serializable only so that a test can read which method a case's body is ({@code CaseMethodsTest}):
 * a case is a named method, referred to as {@code SomeCases::methodName}, never an anonymous lambda.
 */
@FunctionalInterface
public interface CaseBody extends Serializable
{
    void run(CaseContext context) throws Exception;
}
