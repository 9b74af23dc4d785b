package mpi.rma;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.rma.internal.AccessChecks;
import mpi.rma.internal.AttachedMemory;
import mpi.rma.internal.Epochs;
import mpi.rma.internal.PairFetchAndOp;
import mpi.rma.internal.PassiveLocks;
import mpi.rma.internal.RequestCalls;
import mpi.rma.internal.TargetPath;
import mpi.rma.internal.WindowGroup;
import mpi.rma.internal.WindowHints;
import mpi.rma.internal.WindowParts;
import mpi.rma.internal.attributes.Keyvals;
import mpi.rma.internal.attributes.WindowAttributes;
import mpi.rma.internal.creation.AllocateWindowCreation;
import mpi.rma.internal.creation.MessageWindowCreation;
import mpi.rma.internal.creation.SharedWindowCreation;
import mpi.rma.internal.errors.WindowErrors;
import mpi.rma.internal.sync.Pscw;
import mpi.rma.internal.types.AccumulateOps;
import mpi.rma.spi.common.BasicType;
import mpi.rma.spi.common.PairType;
import mpi.rma.spi.common.ReduceOp;
import mpi.rma.internal.types.TypeLayout;
import mpi.rma.internal.types.TypeLayouts;
import mpi.rma.internal.vocabulary.Assertions;
import mpi.rma.internal.vocabulary.AttributeKeys;
import mpi.rma.internal.vocabulary.ExtraOps;
import mpi.rma.internal.vocabulary.Flavors;
import mpi.rma.internal.vocabulary.LockTypes;
import mpi.rma.internal.vocabulary.MemoryModels;

/**
 * An MPI-3 window ({@code MPI_Win}). Of flavor shared ({@link #allocateShared}): one segment per
 * process of a communicator on one node, which every process can load and store directly
 * ({@link #sharedQuery(int)}) and reach with one-sided calls (put, get, the accumulate family),
 * ordered by fences, by post, start, complete and wait, or by passive-target locks. Of flavor create
 * ({@link #create}): memory each process owns, on any nodes, reached by the same calls through MPJ
 * Express messages. Of flavor
 * allocate ({@link #allocate}): memory from each node's shared memory, reached by loads and stores
 * within the node and by messages across nodes.
 *
 * <pre>{@code
 * try (Win win = Win.allocateShared(8 * Long.BYTES, Long.BYTES, null, MPI.COMM_WORLD))
 * {
 *     win.fence(0);
 *     win.put(new long[] {42}, 0, 1, MPI.LONG, (rank + 1) % size, 0, 1, MPI.LONG);
 *     win.fence(Win.MODE_NOSUCCEED);
 *     long fromLeftNeighbour = win.sharedQuery(rank).memory().get(ValueLayout.JAVA_LONG, 0);
 * }
 * }</pre>
 *
 * <p>Origin and result buffers are Java arrays ({@code byte[]}, {@code char[]}, {@code short[]},
 * {@code boolean[]}, {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]}) described
 * by MPJ Express's basic datatypes or by derived ones built from them ({@code Datatype.Vector},
 * {@code Contiguous}, {@code Hvector}, {@code Indexed}, {@code Hindexed}, {@code Struct}, nested) on
 * either side; offsets are array indices and counts are copies of the datatype, as in MPJ Express's
 * send and receive; target displacements are in units of the target's displacement unit. Every
 * error is an {@link RmaException} with its MPI error class; a call on a window first hands it to the window's
 * error handler ({@link #setErrhandler}: by default {@link WinErrhandler#ERRORS_RETURN}, which leaves the
 * exception alone). A window is used by one thread at a time.
 */
public final class Win implements AutoCloseable
{
    /**
     * Lock, start and post assertion: no other process holds or will try to take a conflicting lock; for
     * start and post (given to both or neither), the matching posts have all been called already.
     */
    public static final int MODE_NOCHECK = Assertions.NOCHECK;
    /** Fence and post assertion: the local window was not stored to since the last synchronisation. */
    public static final int MODE_NOSTORE = Assertions.NOSTORE;
    /** Fence and post assertion: no put or accumulate will update the local window until the next synchronisation. */
    public static final int MODE_NOPUT = Assertions.NOPUT;
    /** Fence assertion: the fence completes no RMA calls of this process (all processes must agree). */
    public static final int MODE_NOPRECEDE = Assertions.NOPRECEDE;
    /** Fence assertion: no RMA calls follow this fence; it ends the fence epochs (all processes must agree). */
    public static final int MODE_NOSUCCEED = Assertions.NOSUCCEED;
    public static final int LOCK_EXCLUSIVE = LockTypes.EXCLUSIVE;
    public static final int LOCK_SHARED = LockTypes.SHARED;

    /** Accumulate operation: the target element becomes the origin element. */
    public static final Op REPLACE = ExtraOps.REPLACE;
    /** Accumulate operation (getAccumulate and fetchAndOp only): the target is read, not changed. */
    public static final Op NO_OP = ExtraOps.NO_OP;

    /** Attribute key of {@link #getAttr(int)}: this process's segment, as a {@link MemorySegment}. */
    public static final int WIN_BASE = AttributeKeys.BASE;
    /** Attribute key: this process's segment size in bytes, a {@link Long}. */
    public static final int WIN_SIZE = AttributeKeys.SIZE;
    /** Attribute key: this process's displacement unit, an {@link Integer}. */
    public static final int WIN_DISP_UNIT = AttributeKeys.DISP_UNIT;
    /** Attribute key: how the window was made, {@link #FLAVOR_SHARED}, {@link #FLAVOR_CREATE} or FLAVOR_ALLOCATE. */
    public static final int WIN_CREATE_FLAVOR = AttributeKeys.CREATE_FLAVOR;
    /** Attribute key: the memory model, {@link #UNIFIED} for shared windows, {@link #SEPARATE} for the others. */
    public static final int WIN_MODEL = AttributeKeys.MODEL;
    public static final int FLAVOR_CREATE = Flavors.CREATE;
    public static final int FLAVOR_ALLOCATE = Flavors.ALLOCATE;
    public static final int FLAVOR_DYNAMIC = Flavors.DYNAMIC;
    public static final int FLAVOR_SHARED = Flavors.SHARED;
    public static final int SEPARATE = MemoryModels.SEPARATE;
    public static final int UNIFIED = MemoryModels.UNIFIED;
    /** {@code MPI_MAX_OBJECT_NAME}: names are cut to one less than this. */
    public static final int MAX_OBJECT_NAME = AttributeKeys.MAX_OBJECT_NAME;
    /** {@code MPI_KEYVAL_INVALID}: no key; {@link #createKeyval()} never returns it. */
    public static final int KEYVAL_INVALID = Keyvals.INVALID;

    private final Intracomm comm;
    private final int rank;
    private final long[] sizes;
    private final int[] dispUnits;
    private final WindowHints hints;
    private final AccessChecks checks;
    private final Epochs epochs;
    /** How targets are reached: shared memory or messages. */
    private final TargetPath targets;
    /** rPut, rGet, rAccumulate, rGetAccumulate. */
    private final RequestCalls requests;
    /** Post, start, complete and wait. */
    private final Pscw pscw;
    /** Lock, unlock, lockAll and unlockAll, and which locks this process holds. */
    private final PassiveLocks locks;
    private String name = "";
    private boolean freed;
    /** Attributes of the program's own keys ({@link #setAttr}). */
    private final WindowAttributes attributes =
        new WindowAttributes((callback, keyval, value) -> callback.delete(this, keyval, value));
    /** The error handler ({@link #setErrhandler}). */
    private final WindowErrors errors =
        new WindowErrors((handler, errorClass, message) -> handler.call(this, errorClass, message));

    private Win(final WindowParts parts)
    {
        this(parts.comm(), parts.sizes(), parts.dispUnits(), parts.hints(), parts.targets());
    }

    private Win(final Intracomm comm, final long[] sizes, final int[] dispUnits, final WindowHints hints,
        final TargetPath targets)
    {
        this.comm = comm;
        this.rank = comm.Rank();
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.hints = hints;
        this.checks = new AccessChecks(sizes, dispUnits, targets.flavor() == FLAVOR_DYNAMIC);
        this.epochs = new Epochs(sizes.length);
        this.targets = targets;
        this.requests = new RequestCalls(checks, epochs, targets, hints);
        this.locks = new PassiveLocks(sizes.length, checks, epochs, targets, hints);
        this.pscw = new Pscw(rank, epochs, new WindowGroup(comm), targets.pscw());
    }

    /**
     * Makes a shared window; collective over {@code comm} ({@code MPI_Win_allocate_shared}).
     * Sizes and displacement units may differ between processes, and sizes may be 0. The
     * segments lie back to back in rank order unless every process passes
     * {@code alloc_shared_noncontig=true}.
     *
     * @param size     bytes of this process's segment, 0 or more.
     * @param dispUnit the unit, in bytes, of displacements that target this process.
     * @param info     hints, or null.
     * @param comm     the processes, all on one node (see {@link Shared#split}).
     * @throws RmaException on every process: ERR_SIZE, ERR_DISP, ERR_INFO_VALUE (naming the rank
     *                      at fault), ERR_RMA_SHARED if the processes span nodes, ERR_NO_MEM if the
     *                      node cannot provide the memory; ERR_PROC_FAILED, naming the rank, on the
     *                      survivors if a process dies during the call.
     */
    public static Win allocateShared(final long size, final int dispUnit, final Info info, final Intracomm comm)
    {
        return new Win(SharedWindowCreation.allocateShared(size, dispUnit, info, comm));
    }

    /**
     * Makes a window over memory this process owns; collective over {@code comm} ({@code MPI_Win_create}).
     * Other processes reach it by messages, served by a thread of this process while it computes
     * (MPI-4.1 section 12.2.1). Sizes and displacement units may differ between processes.
     *
     * @param base     the memory: a primitive array ({@code double[]}, {@code int[]}, ...), a
     *                 {@link MemorySegment} (heap or native) or a direct {@link java.nio.ByteBuffer}; the
     *                 window's size is all its bytes.
     * @param dispUnit the unit, in bytes, of displacements that target this process.
     * @param info     hints, or null.
     * @param comm     the processes, on any nodes.
     * @throws RmaException on every process: ERR_BASE for a base of another kind, ERR_DISP, ERR_INFO_VALUE
     *                      (naming the rank at fault); ERR_PROC_FAILED, naming the rank, if a process dies
     *                      during the call.
     */
    public static Win create(final Object base, final int dispUnit, final Info info, final Intracomm comm)
    {
        return new Win(MessageWindowCreation.create(base, dispUnit, info, comm));
    }

    /**
     * Makes a window over memory the library allocates; collective over {@code comm}
     * ({@code MPI_Win_allocate}, MPI-4.1 section 12.2.2). The memory comes from each node's shared
     * memory: targets on the caller's node are reached by loads and stores, as with {@link #allocateShared}
     * ({@link #sharedQuery} gives their memory), the others by messages, as with {@link #create}. The
     * model is {@link #UNIFIED} when every process is on one node, else {@link #SEPARATE}. {@link #base()} is
     * this process's memory, zeroed, 64-byte aligned, and throws on access once the window is freed.
     *
     * @param size     bytes of this process's memory, 0 or more.
     * @param dispUnit the unit, in bytes, of displacements that target this process.
     * @param info     hints, or null.
     * @param comm     the processes, on any nodes.
     * @throws RmaException on every process: ERR_SIZE, ERR_DISP, ERR_INFO_VALUE (naming the rank at fault),
     *                      ERR_NO_MEM if the memory cannot be had; ERR_PROC_FAILED, naming the rank, if a
     *                      process dies during the call.
     */
    public static Win allocate(final long size, final int dispUnit, final Info info, final Intracomm comm)
    {
        return new Win(AllocateWindowCreation.allocate(size, dispUnit, info, comm));
    }

    /**
     * Makes a window with no memory yet; collective over {@code comm} ({@code MPI_Win_create_dynamic},
     * MPI-4.1 section 12.2.4). Each process then {@link #attach attaches} memory it owns and tells the
     * others its address ({@link #address}), which they give as {@code targetDisp}; every target is reached
     * by messages, as with {@link #create}. Size 0 and displacement unit 1 on every process.
     *
     * @param info hints, or null.
     * @param comm the processes, on any nodes.
     * @throws RmaException on every process: ERR_INFO_VALUE (naming the rank at fault); ERR_PROC_FAILED,
     *                      naming the rank, if a process dies during the call.
     */
    public static Win createDynamic(final Info info, final Intracomm comm)
    {
        return new Win(MessageWindowCreation.createDynamic(info, comm));
    }

    /**
     * Attaches memory this process owns to a dynamic window ({@code MPI_Win_attach}); local. Other
     * processes may access it, at the returned address onwards, until {@link #detach}.
     *
     * @param base the same kinds as {@link #create}: a primitive array, a {@link MemorySegment} or a
     *             direct {@link java.nio.ByteBuffer}.
     * @return the target displacement (address) of its first byte: a number private to this window and
     *         process, never reused while the window lives. Slices of one array, segment or buffer get the
     *         addresses of their bytes within it, so slices that touch get addresses that touch and one access
     *         may run across them (docs/rma.md#wincreatedynamic-memory-attached-later).
     * @throws RmaException ERR_RMA_FLAVOR if the window is not dynamic; ERR_BASE for a base of another kind;
     *                      ERR_RMA_ATTACH if it overlaps memory attached already (or is attached already).
     */
    public long attach(final Object base)
    {
        try
        {
            checkUsable("Win.attach");
            return dynamicMemory("Win.attach").attach("Win.attach", base);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Detaches what {@link #attach} attached ({@code MPI_Win_detach}); local. Accesses to it must be
     * completed first (a flush, unlock or fence by each origin, ordered before this call): one that
     * arrives later is not applied, and its origin's sync call throws ERR_RMA_RANGE.
     *
     * @throws RmaException ERR_RMA_FLAVOR if the window is not dynamic; ERR_BASE if {@code base} is not attached.
     */
    public void detach(final Object base)
    {
        try
        {
            checkUsable("Win.detach");
            dynamicMemory("Win.detach").detach("Win.detach", base);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * The address of byte {@code byteOffset} of attached memory ({@code MPI_Get_address} for a dynamic
     * window): what other processes give as {@code targetDisp} to reach it. Addresses belong to this
     * window and process, so the call is the window's: send the result to the origins (Send, Bcast...).
     *
     * @param base       attached memory: what {@link #attach} was given, or a slice of an attached segment.
     * @param byteOffset 0 to the size of {@code base} in bytes (element i of a {@code double[]}: i * 8).
     * @throws RmaException ERR_RMA_FLAVOR if the window is not dynamic; ERR_BASE if {@code base} is not
     *                      attached; ERR_ARG if {@code byteOffset} is outside it.
     */
    public long address(final Object base, final long byteOffset)
    {
        try
        {
            checkUsable("Win.address");
            return dynamicMemory("Win.address").address("Win.address", base, byteOffset);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * The segment of process {@code rank} for direct loads and stores ({@code MPI_Win_shared_query}):
     * its size, displacement unit and memory. {@code MPI.PROC_NULL} gives the segment of the lowest
     * rank whose size is not 0 (size 0 if there is none). A local call, needing no epoch. A window
     * made by {@link #create} or {@link #allocate} shares only this process's own memory with it:
     * other ranks give size 0.
     */
    public SharedSegment sharedQuery(final int rank)
    {
        try
        {
            checkUsable("Win.sharedQuery");
            if (rank != MPI.PROC_NULL)
            {
                checks.checkRank("Win.sharedQuery", "rank", rank, false);
            }
            return targets.sharedQuery(rank);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Collective synchronisation of every process of the window ({@code MPI_Win_fence}): completes
     * every RMA call made since the last fence, and makes every store to shared memory before it
     * visible to every load after it. Opens the next fence epoch unless {@link #MODE_NOSUCCEED}.
     *
     * @param assertion 0 or an OR of {@link #MODE_NOSTORE}, {@link #MODE_NOPUT}, {@link #MODE_NOPRECEDE},
     *                  {@link #MODE_NOSUCCEED}.
     * @throws RmaException on every process if any passes a bad assertion (ERR_ASSERT) or holds a lock
     *                      (ERR_RMA_SYNC); ERR_PROC_FAILED, naming the rank, if a process of the window died.
     */
    public void fence(final int assertion)
    {
        try
        {
            checkUsable("Win.fence");
            RmaException localError = null;
            if ((assertion & ~Assertions.FENCE) != 0)
            {
                localError = new RmaException(ErrorClass.ERR_ASSERT, "Win.fence: assertion=" + assertion + " has bits " +
                    "a fence does not accept" + ((assertion & MODE_NOCHECK) != 0 ? " (MODE_NOCHECK is for locks)" : "") +
                    ": give 0 or an OR of MODE_NOSTORE, MODE_NOPUT, MODE_NOPRECEDE, MODE_NOSUCCEED");
            }
            else
            {
                try
                {
                    epochs.checkFence();
                }
                catch (final RmaException e)
                {
                    localError = e;
                }
            }
            targets.fence("Win.fence", localError);
            epochs.fenced(assertion);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Starts an exposure epoch for the processes of {@code group} ({@code MPI_Win_post}, MPI-4.1 section
     * 12.5.2): they may access this process's memory between their {@link #start} and {@link #complete}.
     * Does not wait. Within a node the signal is a flag word in shared memory; across nodes a message.
     *
     * @param group     processes of the window (a subgroup of {@link #getGroup()}), this one included if it likes.
     * @param assertion 0 or an OR of {@link #MODE_NOCHECK} (each origin's start has it too),
     *                  {@link #MODE_NOSTORE}, {@link #MODE_NOPUT}.
     * @throws RmaException ERR_GROUP for a null group or one with processes outside the window; ERR_ASSERT;
     *                      ERR_RMA_SYNC if an exposure epoch is open already, or a fence epoch with RMA calls.
     */
    public void post(final Group group, final int assertion)
    {
        try
        {
            checkUsable("Win.post");
            pscw.post(group, assertion);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Starts an access epoch to the processes of {@code group} ({@code MPI_Win_start}, MPI-4.1 section
     * 12.5.2): RMA calls may target them until {@link #complete}. Waits until each has posted to this
     * process, unless {@link #MODE_NOCHECK} says they all have (then it waits for nothing).
     *
     * @param group     processes of the window (a subgroup of {@link #getGroup()}).
     * @param assertion 0 or {@link #MODE_NOCHECK}.
     * @throws RmaException ERR_GROUP for a null group or one with processes outside the window; ERR_ASSERT;
     *                      ERR_RMA_SYNC if an access epoch from start is open already, or a lock epoch, or a
     *                      fence epoch with RMA calls; ERR_PROC_FAILED naming a target that died.
     */
    public void start(final Group group, final int assertion)
    {
        try
        {
            checkUsable("Win.start");
            pscw.start(group, assertion);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Ends the access epoch of {@link #start} ({@code MPI_Win_complete}, MPI-4.1 section 12.5.2): this
     * process's RMA calls of the epoch are complete here, and each target's {@link #waitFor} returns
     * once they are complete there.
     *
     * @throws RmaException ERR_RMA_SYNC if no access epoch from start is open; on a dynamic window,
     *                      ERR_RMA_RANGE for a put or accumulate that found no attached memory (the
     *                      epoch ends all the same).
     */
    public void complete()
    {
        try
        {
            checkUsable("Win.complete");
            pscw.complete();
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Ends the exposure epoch of {@link #post} ({@code MPI_Win_wait}; Java's {@code Object.wait} is
     * final, so the name of Open MPI's Java bindings): returns once every process of the post's group has
     * called {@link #complete}, with their updates visible to this process's loads.
     *
     * @throws RmaException ERR_RMA_SYNC if no exposure epoch is open; ERR_PROC_FAILED naming an origin
     *                      that died before its complete.
     */
    public void waitFor()
    {
        try
        {
            checkUsable("Win.waitFor");
            pscw.waitFor();
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * {@link #waitFor} without waiting ({@code MPI_Win_test}): true, and the exposure epoch ended, if
     * every process of the post's group has completed; false, and the epoch still open, otherwise.
     *
     * @throws RmaException ERR_RMA_SYNC if no exposure epoch is open.
     */
    public boolean test()
    {
        try
        {
            checkUsable("Win.test");
            return pscw.test();
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Copies origin elements into the target's segment ({@code MPI_Put}). A transfer that moves nothing
     * (counts of 0, or datatypes of size 0), here and in get, the accumulate family and the request-based
     * calls, checks the datatypes, counts, rank, epoch and displacement only: its buffers may be null and its
     * datatypes differ (empty type signatures match), and nothing reaches the target.
     */
    public void put(final Object origin, final int originOffset, final int originCount, final Datatype originType,
        final int targetRank, final long targetDisp, final int targetCount, final Datatype targetType)
    {
        try
        {
            final String call = "Win.put";
            checkUsable(call);
            final long offset = checks.transferOffset(epochs, call, origin, originOffset, originCount, originType,
                targetRank, targetDisp, targetCount, targetType, true);
            if (offset != AccessChecks.NO_TARGET)
            {
                targets.put(call, origin, originOffset, TypeLayouts.of(originType, call, "origin"), originCount,
                    targetRank, offset, TypeLayouts.of(targetType, call, "target"), targetCount);
            }
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** Copies elements of the target's segment into the origin buffer ({@code MPI_Get}). */
    public void get(final Object origin, final int originOffset, final int originCount, final Datatype originType,
        final int targetRank, final long targetDisp, final int targetCount, final Datatype targetType)
    {
        try
        {
            final String call = "Win.get";
            checkUsable(call);
            final long offset = checks.transferOffset(epochs, call, origin, originOffset, originCount, originType,
                targetRank, targetDisp, targetCount, targetType, false);
            if (offset != AccessChecks.NO_TARGET)
            {
                targets.get(call, origin, originOffset, TypeLayouts.of(originType, call, "origin"), originCount,
                    targetRank, offset, TypeLayouts.of(targetType, call, "target"), targetCount);
            }
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Combines origin elements into the target's with {@code op}, atomically per element
     * ({@code MPI_Accumulate}); {@link #REPLACE} stores them. With a pair type ({@code MPI.SHORT2},
     * {@code INT2}, {@code LONG2}, {@code FLOAT2}, {@code DOUBLE2} on both sides, counts in pairs) an element is a
     * (value, index) pair, updated whole, and {@code op} is {@code MPI.MAXLOC} or {@code MPI.MINLOC} (the greater
     * or smaller value, on equal values the lower index; MPI-4.1 §6.9.4) or REPLACE.
     *
     * @throws RmaException ERR_OP for an op not defined on the datatype (MAXLOC on a basic type, SUM on a pair
     *                      type), ERR_TYPE for a pair type on one side only; and put's errors.
     */
    public void accumulate(final Object origin, final int originOffset, final int originCount,
        final Datatype originType,
        final int targetRank, final long targetDisp, final int targetCount, final Datatype targetType, final Op op)
    {
        try
        {
            final String call = "Win.accumulate";
            checkUsable(call);
            final TypeLayout type = TypeLayouts.of(originType, call, "origin");
            final ReduceOp reduce = AccumulateOps.forAccumulate(op, originType, type, targetType, call);
            final long offset = checks.transferOffset(epochs, call, origin, originOffset, originCount, originType,
                targetRank, targetDisp, targetCount, targetType, true);
            if (offset != AccessChecks.NO_TARGET)
            {
                targets.accumulate(call, reduce, origin, originOffset, type, originCount, targetRank, offset,
                    TypeLayouts.of(targetType, call, "target"), targetCount);
            }
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Returns the target's elements in {@code result} and combines the origin's into them with
     * {@code op}, atomically per element ({@code MPI_Get_accumulate}). With {@link #NO_OP} the
     * origin arguments are ignored (origin may be null) and the target is only read. Pair types as for
     * {@link #accumulate}: target, result and (unless NO_OP) origin all the same pair type.
     */
    public void getAccumulate(final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final Object result, final int resultOffset, final int resultCount,
        final Datatype resultType, final int targetRank, final long targetDisp, final int targetCount,
        final Datatype targetType, final Op op)
    {
        try
        {
            final String call = "Win.getAccumulate";
            checkUsable(call);
            final AccessChecks.ResultTransfer transfer = checks.resultTransfer(epochs, call, origin, originOffset,
                originCount, originType, result, resultOffset, resultCount, resultType, targetRank, targetDisp,
                targetCount, targetType, op);
            if (transfer != null)
            {
                targets.getAccumulate(call, transfer.op(), origin, originOffset, transfer.origin(), originCount, result,
                    resultOffset, transfer.result(), resultCount, targetRank, transfer.offset(), transfer.target(),
                    targetCount);
            }
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * getAccumulate of one element ({@code MPI_Fetch_and_op}); with {@link #NO_OP} origin may be null. The
     * element is one of a basic type, or one (value, index) pair of a pair type ({@code MPI.INT2}, ...: two array
     * elements from the offset on) for {@code MPI.MAXLOC}, {@code MPI.MINLOC}, {@link #REPLACE} and {@link #NO_OP}.
     */
    public void fetchAndOp(final Object origin, final int originOffset, final Object result, final int resultOffset,
        final Datatype type, final int targetRank, final long targetDisp, final Op op)
    {
        try
        {
            final String call = "Win.fetchAndOp";
            checkUsable(call);
            final PairType pair = PairType.of(type);
            if (pair != null)
            {
                PairFetchAndOp.apply(call, checks, epochs, targets, pair, origin, originOffset, result, resultOffset,
                    targetRank, targetDisp, op);
                return;
            }
            final BasicType basic = BasicType.of(type, call + ": type");
            final ReduceOp reduce = ReduceOp.of(op, basic, true, call);
            if (reduce != ReduceOp.NO_OP)
            {
                AccessChecks.checkBuffer(call, "origin", origin, originOffset, 1, basic);
            }
            AccessChecks.checkBuffer(call, "result", result, resultOffset, 1, basic);
            final long offset = checks.accessOffset(call, epochs, targetRank, targetDisp, 1, TypeLayout.basic(basic));
            if (offset != AccessChecks.NO_TARGET)
            {
                targets.fetchAndOp(call, basic, reduce, origin, originOffset, result, resultOffset, targetRank, offset);
            }
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Replaces the target element with {@code origin[originOffset]} if it equals
     * {@code compare[compareOffset]}, and returns its old value in {@code result[resultOffset]},
     * atomically ({@code MPI_Compare_and_swap}). Integer, char, boolean and byte types only.
     */
    public void compareAndSwap(final Object origin, final int originOffset, final Object compare,
        final int compareOffset, final Object result, final int resultOffset, final Datatype type,
        final int targetRank, final long targetDisp)
    {
        try
        {
            final String call = "Win.compareAndSwap";
            checkUsable(call);
            final BasicType basic = BasicType.of(type, call + ": type");
            if (basic.isFloatingPoint())
            {
                throw new RmaException(ErrorClass.ERR_TYPE, call + ": type is " + basic.mpiName() + ", but compare-and-swap " +
                    "takes integer, char, boolean or byte types (floating-point equality is not bitwise)");
            }
            AccessChecks.checkBuffer(call, "origin", origin, originOffset, 1, basic);
            AccessChecks.checkBuffer(call, "compare", compare, compareOffset, 1, basic);
            AccessChecks.checkBuffer(call, "result", result, resultOffset, 1, basic);
            final long offset = checks.accessOffset(call, epochs, targetRank, targetDisp, 1, TypeLayout.basic(basic));
            if (offset == AccessChecks.NO_TARGET)
            {
                return;
            }
            final long old = targets.compareAndSwap(call, basic, basic.rawFromArray(compare, compareOffset),
                basic.rawFromArray(origin, originOffset), targetRank, offset);
            basic.rawToArray(old, result, resultOffset);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * {@link #put}, returning a request ({@code MPI_Rput}, MPI-4.1 section 12.3.5); in a passive-target epoch
     * only. The request completes when the origin buffer may be reused, which is when this call returns: a
     * flush or unlock completes the put at the target.
     *
     * @throws RmaException put's errors; ERR_RMA_SYNC if no lock or lockAll epoch to {@code targetRank} is open
     *                      (a fence epoch is not one).
     */
    public WinRequest rPut(final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final int targetRank, final long targetDisp, final int targetCount,
        final Datatype targetType)
    {
        try
        {
            checkUsable("Win.rPut");
            return new WinRequest("Win.rPut", requests.rPut(origin, originOffset, originCount, originType, targetRank,
                targetDisp, targetCount, targetType));
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * {@link #get}, returning a request ({@code MPI_Rget}); in a passive-target epoch only. The request
     * completes when the elements are in {@code origin}: when this call returns on shared memory, on arrival
     * of the target's reply across nodes.
     *
     * @throws RmaException get's errors; ERR_RMA_SYNC if no lock or lockAll epoch to {@code targetRank} is open.
     */
    public WinRequest rGet(final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final int targetRank, final long targetDisp, final int targetCount,
        final Datatype targetType)
    {
        try
        {
            checkUsable("Win.rGet");
            return new WinRequest("Win.rGet", requests.rGet(origin, originOffset, originCount, originType, targetRank,
                targetDisp, targetCount, targetType));
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * {@link #accumulate}, returning a request ({@code MPI_Raccumulate}); in a passive-target epoch only.
     * Completes as {@link #rPut} does.
     *
     * @throws RmaException accumulate's errors; ERR_RMA_SYNC if no lock or lockAll epoch to {@code targetRank}
     *                      is open.
     */
    public WinRequest rAccumulate(final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final int targetRank, final long targetDisp, final int targetCount,
        final Datatype targetType, final Op op)
    {
        try
        {
            checkUsable("Win.rAccumulate");
            return new WinRequest("Win.rAccumulate", requests.rAccumulate(origin, originOffset, originCount, originType,
                targetRank, targetDisp, targetCount, targetType, op));
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * {@link #getAccumulate}, returning a request ({@code MPI_Rget_accumulate}); in a passive-target epoch
     * only. Completes as {@link #rGet} does, when the old elements are in {@code result}.
     *
     * @throws RmaException getAccumulate's errors; ERR_RMA_SYNC if no lock or lockAll epoch to
     *                      {@code targetRank} is open.
     */
    public WinRequest rGetAccumulate(final Object origin, final int originOffset, final int originCount,
        final Datatype originType, final Object result, final int resultOffset, final int resultCount,
        final Datatype resultType, final int targetRank, final long targetDisp, final int targetCount,
        final Datatype targetType, final Op op)
    {
        try
        {
            checkUsable("Win.rGetAccumulate");
            return new WinRequest("Win.rGetAccumulate", requests.rGetAccumulate(origin, originOffset, originCount,
                originType, result, resultOffset, resultCount, resultType, targetRank, targetDisp, targetCount, targetType,
                op));
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Starts a passive-target epoch to {@code rank} ({@code MPI_Win_lock}); returns once the lock is
     * held. An exclusive lock also protects direct loads and stores of that rank's segment.
     *
     * @param lockType  {@link #LOCK_EXCLUSIVE} or {@link #LOCK_SHARED}.
     * @param assertion 0 or {@link #MODE_NOCHECK} (no conflicting lock exists: the lock is not taken).
     * @throws RmaException ERR_LOCKTYPE for another lock type, ERR_ASSERT for other assertion bits, ERR_RANK,
     *                      ERR_RMA_SYNC if a lock on {@code rank} is held already or the window has no_locks.
     */
    public void lock(final int lockType, final int rank, final int assertion)
    {
        try
        {
            checkUsable("Win.lock");
            locks.lock("Win.lock", lockType, rank, assertion);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** Ends the passive-target epoch to {@code rank}, completing its RMA calls at origin and target. */
    public void unlock(final int rank)
    {
        try
        {
            checkUsable("Win.unlock");
            locks.unlock("Win.unlock", rank);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** Starts a passive-target epoch to every rank with a shared lock on each ({@code MPI_Win_lock_all}). */
    public void lockAll(final int assertion)
    {
        try
        {
            checkUsable("Win.lockAll");
            locks.lockAll("Win.lockAll", assertion);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** Ends the lockAll epoch ({@code MPI_Win_unlock_all}). */
    public void unlockAll()
    {
        try
        {
            checkUsable("Win.unlockAll");
            locks.unlockAll("Win.unlockAll");
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }
    /** Completes this process's RMA calls to {@code rank} at origin and target ({@code MPI_Win_flush}). */
    public void flush(final int rank)
    {
        try
        {
            flushTo("Win.flush", rank);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** Completes this process's RMA calls to every rank ({@code MPI_Win_flush_all}). */
    public void flushAll()
    {
        try
        {
            flushTo("Win.flushAll", -1);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** Completes this process's RMA calls to {@code rank} at the origin ({@code MPI_Win_flush_local}). */
    public void flushLocal(final int rank)
    {
        try
        {
            flushTo("Win.flushLocal", rank);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** Completes this process's RMA calls at the origin ({@code MPI_Win_flush_local_all}). */
    public void flushLocalAll()
    {
        try
        {
            flushTo("Win.flushLocalAll", -1);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * A memory barrier between this process's loads and stores of shared memory and the others'
     * ({@code MPI_Win_sync}). Allowed outside passive-target epochs too (it opens or closes none;
     * docs/design.md#sync-outside-passive-epochs).
     */
    public void sync()
    {
        try
        {
            checkUsable("Win.sync");
            VarHandle.fullFence();
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Frees the window; collective ({@code MPI_Win_free}). Afterwards every segment obtained from it
     * throws on access and every call on it is ERR_WIN. First the attributes of {@link #setAttr} are deleted,
     * the most recently set first, each delete callback run while the window is still usable (MPI-4.1 §7.7.4
     * runs them all at free in an order it leaves open: this is the one order MPI specifies anywhere, for
     * {@code MPI_COMM_SELF} at {@code MPI_Finalize}, §11.2, and lets a later attribute use an earlier one).
     *
     * @throws RmaException ERR_RMA_SYNC on every process if any still has an epoch open (the window
     *                      then stays usable); ERR_PROC_FAILED, naming the rank, if a process of the
     *                      window died (the memory is released all the same); what a delete callback threw, once
     *                      the window is freed.
     */
    public void free()
    {
        try
        {
            checkUsable("Win.free");
            RmaException localError = null;
            try
            {
                epochs.checkFree();
            }
            catch (final RmaException e)
            {
                localError = e;
            }
            // Before the memory goes, so that a delete callback may still use the window; not when this free fails.
            final RmaException callbackError = localError == null ? attributes.deleteAll("Win.free") : null;
            try
            {
                targets.free("Win.free", localError);
            }
            finally
            {
                freed = targets.released();
            }
            if (callbackError != null)
            {
                throw callbackError;
            }
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }
    /**
     * {@link #free()}, for try-with-resources; nothing if the window is already freed, so that
     * {@code try (Win win = ...) { ...; win.free(); }} ends quietly. A second {@link #free()} stays ERR_WIN.
     */
    @Override
    public void close()
    {
        if (!freed)
        {
            free();
        }
    }

    /** Whether the window has been freed. */
    public boolean isFreed()
    {
        return freed;
    }

    /** This process's segment ({@code MPI_WIN_BASE}). */
    public MemorySegment base()
    {
        try
        {
            checkUsable("Win.base");
            return targets.localMemory();
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** Bytes of this process's segment ({@code MPI_WIN_SIZE}). */
    public long size()
    {
        try
        {
            checkUsable("Win.size");
            return sizes[rank];
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** This process's displacement unit ({@code MPI_WIN_DISP_UNIT}). */
    public int dispUnit()
    {
        try
        {
            checkUsable("Win.dispUnit");
            return dispUnits[rank];
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** How the window was made: {@link #FLAVOR_SHARED}, {@link #FLAVOR_CREATE} or {@link #FLAVOR_ALLOCATE}. */
    public int createFlavor()
    {
        try
        {
            checkUsable("Win.createFlavor");
            return targets.flavor();
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * {@link #UNIFIED} for a shared window (public and private copies are the same memory);
     * {@link #SEPARATE} for one made by {@link #create} or {@link #allocate}: other processes' updates become visible
     * to this process's loads only after a synchronisation (fence, unlock, flush with sync).
     */
    public int model()
    {
        try
        {
            checkUsable("Win.model");
            return targets.model();
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * The value of a window attribute ({@code MPI_Win_get_attr}): {@link #WIN_BASE} (a
     * {@link MemorySegment}), {@link #WIN_SIZE} (Long), {@link #WIN_DISP_UNIT},
     * {@link #WIN_CREATE_FLAVOR}, {@link #WIN_MODEL} (Integer); for a key of {@link #createKeyval}, the value
     * {@link #setAttr} set, or null if none is set (MPI's flag false).
     *
     * @throws RmaException ERR_KEYVAL for a key that is neither predefined nor made by createKeyval, or was freed.
     */
    public Object getAttr(final int keyval)
    {
        try
        {
            checkUsable("Win.getAttr");
            return switch (keyval)
            {
                case WIN_BASE -> base();
                case WIN_SIZE -> size();
                case WIN_DISP_UNIT -> dispUnit();
                case WIN_CREATE_FLAVOR -> createFlavor();
                case WIN_MODEL -> model();
                default -> attributes.get("Win.getAttr", keyval);
            };
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** A new group with the window's processes, in the communicator's order ({@code MPI_Win_get_group}). */
    public Group getGroup()
    {
        try
        {
            checkUsable("Win.getGroup");
            return comm.Group();
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** A new info with every hint in effect, defaults included ({@code MPI_Win_get_info}). */
    public Info getInfo()
    {
        try
        {
            checkUsable("Win.getInfo");
            return hints.toInfo();
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Checks new hints ({@code MPI_Win_set_info}). The window keeps the hints it was made with, as
     * MPI allows: none of them can change once the memory is laid out. {@link #getInfo()} shows them.
     */
    public void setInfo(final Info info)
    {
        try
        {
            checkUsable("Win.setInfo");
            if (info == null)
            {
                throw new RmaException(ErrorClass.ERR_INFO, "Win.setInfo: info is null: give an Info, empty for no hints");
            }
            WindowHints.from(info, "Win.setInfo");
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** The window's name, "" until {@link #setName} ({@code MPI_Win_get_name}). */
    public String getName()
    {
        try
        {
            checkUsable("Win.getName");
            return name;
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** Names the window, for messages and tools; cut to {@link #MAX_OBJECT_NAME} - 1 characters. */
    public void setName(final String name)
    {
        try
        {
            checkUsable("Win.setName");
            if (name == null)
            {
                throw new RmaException(ErrorClass.ERR_ARG, "Win.setName: name is null");
            }
            this.name = name.length() < MAX_OBJECT_NAME ? name : name.substring(0, MAX_OBJECT_NAME - 1);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    // Attributes of the program's own keys (MPI-4.1 §7.7.4) and error handlers (§9.3, §12.6.1)

    /** {@link #createKeyval(WinCopyAttrFunction, WinDeleteAttrFunction)} with no callbacks. */
    public static int createKeyval()
    {
        return Keyvals.create(WinCopyAttrFunction.NULL_COPY, WinDeleteAttrFunction.NULL_DELETE);
    }

    /**
     * A new attribute key for this process's windows ({@code MPI_Win_create_keyval}, MPI-4.1 §7.7.4); local.
     * Keys are never reused, and are numbers no predefined attribute has.
     *
     * @param copy   never called (MPI duplicates no window); {@link WinCopyAttrFunction#NULL_COPY} or DUP.
     * @param delete run with the value whenever an attribute of the key is deleted, replaced or dropped by
     *               {@link #free}; {@link WinDeleteAttrFunction#NULL_DELETE} for nothing.
     * @throws RmaException ERR_ARG for a null callback.
     */
    public static int createKeyval(final WinCopyAttrFunction copy, final WinDeleteAttrFunction delete)
    {
        return Keyvals.create(copy, delete);
    }

    /**
     * Frees a key of {@link #createKeyval} ({@code MPI_Win_free_keyval}); local. Later calls naming it are
     * ERR_KEYVAL; attributes already set with it stay until deleted or their window is freed, and their delete
     * callback still runs then.
     *
     * @throws RmaException ERR_KEYVAL for a predefined key, one never made, or one freed already.
     */
    public static void freeKeyval(final int keyval)
    {
        Keyvals.free(keyval);
    }

    /**
     * Sets the attribute of {@code keyval} on this window ({@code MPI_Win_set_attr}); local. A value already set
     * is deleted first, its delete callback run (if that throws, the old value stays and this call fails).
     *
     * @throws RmaException ERR_KEYVAL for a predefined, unknown or freed key; ERR_ARG for a null value.
     */
    public void setAttr(final int keyval, final Object value)
    {
        try
        {
            checkUsable("Win.setAttr");
            attributes.set("Win.setAttr", keyval, value);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Deletes the attribute of {@code keyval} ({@code MPI_Win_delete_attr}), running its delete callback; nothing
     * if none is set, as in MPICH. If the callback throws, the attribute stays and this call fails.
     *
     * @throws RmaException ERR_KEYVAL for a predefined, unknown or freed key.
     */
    public void deleteAttr(final int keyval)
    {
        try
        {
            checkUsable("Win.deleteAttr");
            attributes.delete("Win.deleteAttr", keyval);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Attaches an error handler ({@code MPI_Win_set_errhandler}, MPI-4.1 §9.3.3): every later call on this window
     * that fails calls it, with the window, the error class and the message, before throwing its
     * {@link RmaException}. {@link WinErrhandler#ERRORS_RETURN} (the default: nothing but the exception),
     * {@link WinErrhandler#ERRORS_ARE_FATAL} (abort the process, the error printed) or a handler of the
     * program's own. The calls that make a window report through their exception only, as a communicator
     * without handlers would (MPI-4.1 §12.6.1 gives them the communicator's handler; MPJ Express has none).
     *
     * @throws RmaException ERR_ARG for null.
     */
    public void setErrhandler(final WinErrhandler errhandler)
    {
        try
        {
            checkUsable("Win.setErrhandler");
            errors.attach("Win.setErrhandler", errhandler);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /** The error handler attached ({@code MPI_Win_get_errhandler}); {@link WinErrhandler#ERRORS_RETURN} at first. */
    public WinErrhandler getErrhandler()
    {
        try
        {
            checkUsable("Win.getErrhandler");
            return errors.handler();
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    /**
     * Calls the window's error handler with {@code errorClass} ({@code MPI_Win_call_errhandler}, MPI-4.1 §9.3.4)
     * and returns once it has: nothing with ERRORS_RETURN, the process aborted with ERRORS_ARE_FATAL, a handler
     * of the program's own run with the message "raised by Win.callErrhandler".
     *
     * @throws RmaException ERR_ARG for null.
     */
    public void callErrhandler(final ErrorClass errorClass)
    {
        try
        {
            checkUsable("Win.callErrhandler");
            errors.call(errorClass);
        }
        catch (final RmaException e)
        {
            throw errors.raise(e);
        }
    }

    @Override
    public String toString()
    {
        return "Win[" + (name.isEmpty() ? "" : name + ", ") + "rank " + rank + " of " + sizes.length +
            ", " + (hints.allocSharedNoncontig() ? "noncontiguous" : "contiguous") + (freed ? ", freed" : "") + "]";
    }

    private void flushTo(final String call, final int target)
    {
        checkUsable(call);
        if (target != -1)
        {
            checks.checkRank(call, "rank", target, true);
        }
        epochs.checkFlush(call, target);
        targets.flush(call, target);
        // RMA calls on shared memory complete when they return: a flush only has to order them.
        VarHandle.fullFence();
    }

    /** The memory attached to a dynamic window; ERR_RMA_FLAVOR for any other window. */
    private AttachedMemory dynamicMemory(final String call)
    {
        final int flavor = targets.flavor();
        if (flavor != FLAVOR_DYNAMIC)
        {
            throw new RmaException(ErrorClass.ERR_RMA_FLAVOR, call + ": the window was made by " +
                Flavors.maker(flavor) + "; only a window made by Win.createDynamic takes attached memory");
        }
        return targets.attachedMemory();
    }

    private void checkUsable(final String call)
    {
        if (freed)
        {
            throw new RmaException(ErrorClass.ERR_WIN, call + ": the window has been freed");
        }
    }
}
