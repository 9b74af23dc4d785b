package mpi.rma.spi;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

/**
 * The memory of one shared window as a provider gives it to {@link mpi.rma.Win}: a segment per
 * process, a small shared area for the API's own words (locks, error flags), a fence, and a way
 * to wait on shared words that notices dead processes. Methods throw
 * {@link mpi.rma.RmaException} on failure.
 */
public interface SharedMemory
{
    /** The segment of process {@code rank}, as large as it asked for; throws on access once freed. */
    MemorySegment segment(int rank);

    /**
     * Shared words for the API, zero when allocated, 8-byte aligned, the same memory in every process,
     * at least {@code (processes + 1) * 128 + 2 * processes * row} bytes, where {@code row} is
     * {@code processes * 8} rounded up to a multiple of 128 (a line per process for locks, then two
     * rows of a word per process for the flags of post and complete).
     */
    MemorySegment clientArea();

    /** Collective: returns once every process has called it; a full memory barrier. */
    void fence();

    /** Returns once {@code condition} holds; fails naming a process that died meanwhile. */
    void awaitCondition(BooleanSupplier condition, String what);

    /**
     * Throws {@link mpi.rma.ErrorClass#ERR_PROC_FAILED}, naming the rank, if a process of the window is known to
     * have died; else returns. Every RMA call, lock, unlock and flush on the window calls it, since on shared
     * memory they may never wait (an uncontended lock, a store into a dead process's segment), and a death would
     * otherwise go unnoticed for as long as the program runs: a provider should learn of a death within about a
     * second whatever the processes do, and answer here for about the cost of a load.
     *
     * @param call the API call, starting the message ("Win.lock").
     */
    void checkProcesses(String call);

    /**
     * Collective: releases the memory. Win.free calls it on every process after a fence that
     * every process entered in its free, so a provider need not wait for the others again.
     */
    void free();
}
