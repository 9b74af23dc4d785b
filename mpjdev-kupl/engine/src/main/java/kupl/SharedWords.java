package kupl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * 64-bit words in shared memory, with the memory ordering in each method's name. A
 * {@code putLongRelease} pairs with a {@code getLongAcquire} of the same word: everything
 * the writer did before the put is visible to the reader after the get. Offsets must be
 * multiples of 8 (atomic access needs natural alignment); {@link #verifyAlignment} checks
 * the base once at construction.
 */
final class SharedWords
{
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment memory;

    SharedWords(final MemorySegment memory)
    {
        this.memory = memory;
        verifyAlignment(memory);
    }

    static void verifyAlignment(final MemorySegment memory)
    {
        if ((memory.address() & (Long.BYTES - 1)) != 0)
        {
            throw new IllegalStateException("shared words must be 8-byte aligned: address=0x" +
                Long.toHexString(memory.address()));
        }
    }

    MemorySegment memory()
    {
        return memory;
    }

    long getLong(final long offset)
    {
        return (long)LONG.get(memory, offset);
    }

    void putLong(final long offset, final long value)
    {
        LONG.set(memory, offset, value);
    }

    long getLongAcquire(final long offset)
    {
        return (long)LONG.getAcquire(memory, offset);
    }

    void putLongRelease(final long offset, final long value)
    {
        LONG.setRelease(memory, offset, value);
    }

    long getLongVolatile(final long offset)
    {
        return (long)LONG.getVolatile(memory, offset);
    }

    /**
     * Compare-and-exchange with volatile semantics; returns the value found (the update happened
     * if it equals {@code expected}).
     */
    long compareAndExchangeLong(final long offset, final long expected, final long value)
    {
        return (long)LONG.compareAndExchange(memory, offset, expected, value);
    }

    /** Atomic add with volatile (sequentially consistent) semantics; returns the previous value. */
    long getAndAddLong(final long offset, final long delta)
    {
        return (long)LONG.getAndAdd(memory, offset, delta);
    }
}
