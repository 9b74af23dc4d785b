package mpjrun.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Applies each target's Byte Buddy {@code Advice} to its method, and leaves every other class alone after
 * one map look-up by name.
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
     * @param type       the class, binary name.
     * @param method     a method of it.
     * @param descriptor the method's JVM descriptor ({@code ([Ljava/lang/String;)V}), to pick one overload.
     * @param advice     the class holding the {@code @Advice.OnMethodEnter} code inlined into it.
     * @param needs      a class the inlined code calls, binary name: the class is left alone by a loader that
     *                   cannot see it (MPJ Express's multicore mode loads each rank's classes apart); or null.
     * @param why        what is wrong with MPJ Express's own, in a sentence.
     */
    record Target(String type, String method, String descriptor, Class<?> advice, String needs, String why)
    {
        /** A static method taking {@code String[]} and returning {@code result} (a descriptor): MPJ's entry points. */
        static Target ofArgs(final String type, final String method, final String result, final Class<?> advice,
            final String why)
        {
            return new Target(type, method, "([Ljava/lang/String;)" + result, advice, null, why);
        }
    }

    /** By internal name ({@code runtime/starter/MPJRun}), as the JVM hands it to {@link #transform}. */
    private final Map<String, List<Target>> targets;

    AdviceTransformer(final List<Target> targets)
    {
        this.targets = targets.stream().collect(Collectors.collectingAndThen(
            Collectors.groupingBy(t -> t.type().replace('.', '/'), Collectors.toUnmodifiableList()), Map::copyOf));
    }

    /** Whether {@code typeName} (binary name) is one of the targets. */
    boolean targets(final String typeName)
    {
        return targets.containsKey(typeName.replace('.', '/'));
    }

    /**
     * Whether the class {@code target.needs()} that {@code loader} would give the inlined advice sees MPJ
     * Express's classes too. Parent-first delegation defines it in the topmost ancestor that has it; MPJ
     * Express's multicore mode loads mpj.jar in a loader per rank below the application loader that holds
     * the agent jar, so there the advice could not reach MPJ Express and the class is left alone.
     */
    private static boolean linkable(final ClassLoader loader, final Target target)
    {
        if (loader == null)
        {
            return false;
        }
        final String needed = target.needs().replace('.', '/') + ".class";
        ClassLoader defining = loader;
        while (defining.getParent() != null && defining.getParent().getResource(needed) != null)
        {
            defining = defining.getParent();
        }
        return defining.getResource(needed) != null &&
            defining.getResource(target.type().replace('.', '/') + ".class") != null;
    }

    @Override
    public byte[] transform(final ClassLoader loader, final String internalName, final Class<?> classBeingRedefined,
        final ProtectionDomain protectionDomain, final byte[] classfileBuffer)
    {
        final List<Target> found = internalName == null ? null : targets.get(internalName);
        if (found == null)
        {
            return null;
        }
        final List<Target> visible = found.stream().filter(t -> t.needs() == null || linkable(loader, t)).toList();
        if (visible.isEmpty())
        {
            return null;
        }
        final Target target = visible.getFirst();
        try
        {
            return AdviceWeaver.weave(visible, loader, classfileBuffer);
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
