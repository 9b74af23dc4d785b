package mpjrun.agent;

import static net.bytebuddy.matcher.ElementMatchers.hasDescriptor;
import static net.bytebuddy.matcher.ElementMatchers.named;

import java.util.List;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
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

    /** {@code classfile} of one class with each target's advice inlined into its method (all of that class). */
    static byte[] weave(final List<AdviceTransformer.Target> targets, final ClassLoader loader, final byte[] classfile)
    {
        final AdviceTransformer.Target target = targets.getFirst();
        // The class's own bytes first; its loader for anything it refers to.
        final ClassFileLocator referenced = loader == null ? ClassFileLocator.ForClassLoader.ofBootLoader()
            : ClassFileLocator.ForClassLoader.of(loader);
        final ClassFileLocator locator = new ClassFileLocator.Compound(
            ClassFileLocator.Simple.of(target.type(), classfile), referenced);
        final TypePool pool = TypePool.Default.of(locator);
        DynamicType.Builder<?> builder = new ByteBuddy().with(TypeValidation.DISABLED)
            .redefine(pool.describe(target.type()).resolve(), locator);
        for (final AdviceTransformer.Target each : targets)
        {
            // The advice is read from its class file, not by reflection: reflection would load the types of its
            // parameters (mpi.Comm), and loading the class being transformed here is a duplicate definition.
            final ClassFileLocator adviceLocator = ClassFileLocator.ForClassLoader.of(each.advice().getClassLoader());
            final TypePool advicePool = TypePool.Default.of(new ClassFileLocator.Compound(adviceLocator, locator));
            builder = builder.visit(Advice.to(advicePool.describe(each.advice().getName()).resolve(), adviceLocator)
                .on(named(each.method()).and(hasDescriptor(each.descriptor()))));
        }
        return builder.make().getBytes();
    }
}
