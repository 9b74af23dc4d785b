/**
 * Window attributes of the program's own keys (MPI-4.1 §7.7.4): the process's keys and each window's values.
 * Not API.
 */
package mpi.rma.internal.attributes;
