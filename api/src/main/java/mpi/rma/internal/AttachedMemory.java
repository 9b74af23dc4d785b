package mpi.rma.internal;

/**
 * The memory a dynamic window's process has attached ({@code Win.attach}, {@code detach}, {@code address}):
 * what {@link TargetPath#attachedMemory()} gives the facade, so that it reaches a dynamic window's memory
 * without knowing which path carries it. {@code call} names the user's call for error messages.
 */
public interface AttachedMemory
{
    /** Attaches {@code base}; returns the address of its first byte. */
    long attach(String call, Object base);

    /** Detaches what {@link #attach} attached. */
    void detach(String call, Object base);

    /** The address of byte {@code byteOffset} of attached {@code base}. */
    long address(String call, Object base, long byteOffset);
}
