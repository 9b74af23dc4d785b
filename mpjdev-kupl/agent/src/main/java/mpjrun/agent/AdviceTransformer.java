package mpjrun.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Applies each target's Byte Buddy {@code Advice} to its {@code static method(String[])}, and leaves every
 * other class alone after one map look-up by name.
 *
 * <p>Why not Byte Buddy's {@code AgentBuilder}: it is built, with its class-injection machinery,
 * in every JVM the agent enters ({@code JAVA_TOOL_OPTIONS} reaches them all: starter, daemon,
 * ranks), which cost about 0.6 s per JVM here and printed {@code sun.misc.Unsafe} warnings on JDK 24+.
 * This plain {@link ClassFileTransformer} refers to no Byte Buddy type; {@link AdviceWeaver} does, and
 * is loaded only when a target class is, to rewrite that class's bytes.
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
            return AdviceWeaver.weave(target, loader, classfileBuffer);
        }
        catch (final LinkageError e)
        {
            System.err.println("kupl agent: could not instrument " + target.type() + " (" + target.why() + "), so it " +
                "runs as MPJ Express wrote it: Byte Buddy is missing (" + e + "). Unpackaged kupl-agent classes " +
                "come before the agent jar on the class path: give the packaged jar, which carries Byte Buddy.");
            return null;
        }
        catch (final Throwable e)
        {
            // The JVM swallows a transformer's exception: say it, naming the class; MPJ Express then runs as is.
            System.err.println("kupl agent: could not instrument " + target.type() + " (" + target.why() +
                "), so it runs as MPJ Express wrote it: " + e);
            return null;
        }
    }
}
