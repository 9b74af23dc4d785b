package mpjrun.agent;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.pool.TypePool;

/**
 * The only class of the agent that uses Byte Buddy: loaded when a target class is, so that a JVM
 * which never loads one never loads Byte Buddy, and a class path without Byte Buddy fails at that
 * point with a message ({@link AdviceTransformer}) instead of stopping the JVM in {@code premain}.
 */
final class AdviceWeaver
{
    private AdviceWeaver()
    {
    }

    /** {@code classfile} of {@code target.type()} with the target's advice inlined into its method. */
    static byte[] weave(final AdviceTransformer.Target target, final ClassLoader loader, final byte[] classfile)
    {
        // The class's own bytes first; its loader for anything it refers to.
        final ClassFileLocator referenced = loader == null ? ClassFileLocator.ForClassLoader.ofBootLoader()
            : ClassFileLocator.ForClassLoader.of(loader);
        final ClassFileLocator locator = new ClassFileLocator.Compound(
            ClassFileLocator.Simple.of(target.type(), classfile), referenced);
        final TypePool pool = TypePool.Default.of(locator);
        return new ByteBuddy().with(TypeValidation.DISABLED)
            .redefine(pool.describe(target.type()).resolve(), locator)
            .visit(Advice.to(target.advice()).on(named(target.method()).and(isStatic())
                .and(takesArguments(String[].class))))
            .make()
            .getBytes();
    }
}
