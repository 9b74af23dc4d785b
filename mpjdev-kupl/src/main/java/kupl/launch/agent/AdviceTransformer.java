package kupl.launch.agent;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.pool.TypePool;

/**
 * Applies each target's {@link Advice} to its {@code static method(String[])}, and leaves every
 * other class alone after one map look-up by name.
 *
 * <p>Why not Byte Buddy's {@code AgentBuilder}: it is built, with its class-injection machinery,
 * in every JVM the agent enters ({@code JAVA_TOOL_OPTIONS} reaches them all: starter, daemon,
 * ranks), which cost about 0.6 s per JVM here and printed {@code sun.misc.Unsafe} warnings on JDK 24+.
 * This plain {@link ClassFileTransformer} touches Byte Buddy only when a target class is loaded, and
 * then only to rewrite that class's bytes.
 */
final class AdviceTransformer implements ClassFileTransformer
{
    /**
     * One method MPJ Express wrote that the agent changes.
     *
     * @param type   the class, binary name.
     * @param method a static method of it taking {@code String[]}.
     * @param advice the class holding the {@code @Advice.OnMethodEnter} code inlined into it.
     * @param why    what is wrong with MPJ Express's own, in a sentence.
     */
    record Target(String type, String method, Class<?> advice, String why)
    {
    }

    /** By internal name ({@code runtime/starter/MPJRun}), as the JVM hands it to {@link #transform}. */
    private final Map<String, Target> targets;

    AdviceTransformer(final List<Target> targets)
    {
        this.targets = targets.stream().collect(Collectors.toUnmodifiableMap(t -> t.type().replace('.', '/'),
            Function.identity()));
    }

    /** Whether {@code typeName} (binary name) is one of the targets. */
    boolean targets(final String typeName)
    {
        return targets.containsKey(typeName.replace('.', '/'));
    }

    @Override
    public byte[] transform(final ClassLoader loader, final String internalName, final Class<?> classBeingRedefined,
        final ProtectionDomain protectionDomain, final byte[] classfileBuffer)
    {
        final Target target = internalName == null ? null : targets.get(internalName);
        if (target == null)
        {
            return null;
        }
        try
        {
            return rewrite(target, loader, classfileBuffer);
        }
        catch (final Throwable e)
        {
            // The JVM swallows a transformer's exception: say it, naming the class; MPJ Express then runs as is.
            System.err.println("kupl agent: could not instrument " + target.type() + " (" + target.why() +
                "), so it runs as MPJ Express wrote it: " + e);
            return null;
        }
    }

    private static byte[] rewrite(final Target target, final ClassLoader loader, final byte[] classfile)
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
