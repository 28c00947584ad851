/* mpi.h — tournaments across MPI ranks (`make MPI=1` builds build/dhm-mpi with MPICH).
 *
 * Rank 0 runs the command as usual and alone opens the store; when a tournament starts it
 * sends the run (pool, options, deals, shard) to the other ranks, which play sets and send the
 * results back; rank 0 hands out set indices one at a time as ranks become free and stores each
 * finished set in one transaction, exactly as the threaded scheduler does. A set is fully
 * determined by (seed, index), so the store is the same for any number of ranks. Each rank runs
 * its own embedded server for sets with external clients (on a free port of its own host).
 *
 * A rank that dies: with MPICH's default, mpiexec then ends the whole job; the finished sets
 * are stored and `--resume` (with any number of ranks) completes the run. A rank killed by a
 * signal also takes the other ranks of its node (MPICH's hydra kills them, whatever the
 * options). Started with `mpiexec -disable-auto-cleanup`, the ranks on other nodes go on:
 * playing ranks say after each game that they still play (TAG_ALIVE, at most every
 * rank_timeout_ms / 4 and once a second), and a rank silent for rank_timeout_ms is reported,
 * its set handed to another rank (a late answer is still stored if the set is not yet).
 * Results travel in small pieces, so that a rank dying while it sends one cannot take rank 0
 * with it (docs/cluster.md).
 *
 * Without DHM_MPI every function below is a stub: mpi_size() is 1.
 */
#ifndef DHM_MPI_H
#define DHM_MPI_H

#include <stddef.h>

#include "arena/tournament.h"

/* Call first thing in main / last. mpi_init returns this process's rank (0 without MPI). */
int mpi_init(int *argc, char ***argv);
void mpi_finish(void);
/* Rank 0 after a run that gave up on ranks: ends the whole job (the ranks given up on would
 * never answer the end of the job), with this exit status. */
void mpi_end_job(int status);
int mpi_size(void);

/* Ranks other than 0: serve tournaments until rank 0 says it is done. Returns an exit status. */
int mpi_worker_main(void);

/* Rank 0: the tournament across all ranks (size > 1). Returns as tournament_run; *lost gets
 * the ranks given up on (their sets were played by others). */
int tournament_run_mpi(const TournamentConfig *c, Store *st, long rank_timeout_ms, int *lost, char *err, size_t errsz);

#endif
