package conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A report names a failing case by its id: the id names the method that holds the case's body, so
 * that the name finds the code (docs/conformance.md, "Adding a case").
 */
class CaseMethodsTest
{
    @Test
    void shouldRunEveryCaseInAMethodNamedAfterItsId() throws ReflectiveOperationException
    {
        final List<String> wrong = new ArrayList<>();
        for (final Case c : Catalog.all())
        {
            final String expected = methodName(c.id());
            final SerializedLambda body = serialized(c.body());
            final boolean named = body.getImplMethodKind() == MethodHandleInfo.REF_invokeStatic &&
                body.getImplMethodName().equals(expected) && body.getCapturedArgCount() == 0 &&
                body.getImplClass().startsWith("conformance/cases/") && body.getImplClass().endsWith("Cases");
            if (!named)
            {
                wrong.add(c.id() + " runs " + body.getImplClass().replace('/', '.') + "." + body.getImplMethodName() +
                    " (captures " + body.getCapturedArgCount() + "), not a static method " + expected +
                    "(CaseContext) of a conformance.cases.*Cases class given as SomeCases::" + expected);
            }
        }
        assertEquals(List.of(), wrong, "cases whose body is not the method their id names");
    }

    @Test
    void shouldDeriveTheMethodNameFromTheIdAfterItsPrefix()
    {
        assertEquals("pairMaxlocMinloc", methodName("acc.pair-maxloc-minloc"));
        assertEquals("procNullLowestNonzero", methodName("query.proc-null-lowest-nonzero"));
        assertEquals("typeByte", methodName("gacc.type-byte"));
    }

    /** The id after its first dot, in lower camel case: {@code acc.pair-maxloc-minloc} is {@code pairMaxlocMinloc}. */
    static String methodName(final String id)
    {
        final String[] words = id.substring(id.indexOf('.') + 1).split("[-.]");
        final StringBuilder name = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++)
        {
            name.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        return name.toString();
    }

    /** What the compiler records of a serializable lambda or method reference: the method it runs. */
    private static SerializedLambda serialized(final CaseBody body) throws ReflectiveOperationException
    {
        final Method writeReplace = body.getClass().getDeclaredMethod("writeReplace");
        writeReplace.setAccessible(true);
        return (SerializedLambda)writeReplace.invoke(body);
    }
}
