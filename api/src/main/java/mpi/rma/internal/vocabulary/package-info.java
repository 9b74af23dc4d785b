/**
 * The window's vocabulary: the numbers and operations a program passes to {@link mpi.rma.Win} (assertion bits,
 * lock types, flavours, memory models, attribute keys, and the two accumulate operations MPJ Express lacks).
 * Defined here, in leaf classes that import nothing of the api, so that the machinery behind {@code Win} uses
 * them without reaching up into the facade; {@code Win} re-exports each under its MPI name
 * ({@code Win.MODE_NOCHECK} is {@link mpi.rma.internal.vocabulary.Assertions#NOCHECK}).
 *
 * <p>Not API: internal to {@code mpi.rma}; programs use the names on {@code Win}.
 */
package mpi.rma.internal.vocabulary;
