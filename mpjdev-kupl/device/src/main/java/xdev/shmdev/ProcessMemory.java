package xdev.shmdev;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Reads another process's memory in one copy ({@code process_vm_readv}, Linux's cross-memory
 * attach, as MPICH and Open MPI use for large messages on one node). A receiver copies a large
 * message straight from the sender's buffer into its own: no queue, no hand-off between the two
 * processes per chunk. Needs the same user and ptrace permission; where either is missing the
 * call fails and the device streams through its queues instead.
 */
final class ProcessMemory
{
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle PROCESS_VM_READV = LINKER.downcallHandle(
        LINKER.defaultLookup().find("process_vm_readv").orElseThrow(),
        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
        Linker.Option.captureCallState("errno"));
    /** {@code struct iovec}: base and length. */
    private static final long IOVEC_BYTES = 16;

    private ProcessMemory()
    {
    }

    /** A failed read, with errno. */
    static final class ReadFailedException extends Exception
    {
        private static final long serialVersionUID = 1L;

        ReadFailedException(final String message)
        {
            super(message);
        }
    }

    /**
     * Copies {@code target.byteSize()} bytes from address {@code remoteAddress} of process
     * {@code pid} into {@code target} (native memory).
     */
    static void read(final long pid, final long remoteAddress, final MemorySegment target) throws ReadFailedException
    {
        if (!target.isNative())
        {
            throw new ReadFailedException("the receive buffer is not native memory");
        }
        long done = 0;
        final long length = target.byteSize();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment local = arena.allocate(IOVEC_BYTES, 8);
            final MemorySegment remote = arena.allocate(IOVEC_BYTES, 8);
            final MemorySegment state = arena.allocate(CALL_STATE);
            while (done < length)
            {
                local.set(ValueLayout.JAVA_LONG, 0, target.address() + done);
                local.set(ValueLayout.JAVA_LONG, 8, length - done);
                remote.set(ValueLayout.JAVA_LONG, 0, remoteAddress + done);
                remote.set(ValueLayout.JAVA_LONG, 8, length - done);
                final long read = (long)PROCESS_VM_READV.invokeExact(state, (int)pid, local, 1L, remote, 1L, 0L);
                if (read <= 0)
                {
                    throw new ReadFailedException("process_vm_readv from pid " + pid + " failed (errno " +
                        (read < 0 ? (int)ERRNO.get(state, 0L) : 0) + ") after " + done + " of " + length + " bytes");
                }
                done += read;
            }
        }
        catch (final ReadFailedException e)
        {
            throw e;
        }
        catch (final Throwable t)
        {
            throw new ReadFailedException("process_vm_readv from pid " + pid + ": " + t);
        }
    }
}
