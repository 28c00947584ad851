/* stream.h — rating results as they are read, in memory that grows with the players and never
 * with the results: a ResultsSink that rates each set or game as it is added with the methods
 * that stream (method_info()->streams: se, sg, sg2, sts, elo-game, morita) and keeps only the
 * head-to-head tables of the sets and of the games (what --mse, --crosstable, --transitivity
 * and the bounds need). Fed the sets of some results in rating order (results_sort_sets: by
 * order, then as added) and their games in order, it gives exactly what method_run and
 * h2h_build give on the same results kept in memory. Methods that need every set or game at
 * once (bt, pl, melo) cannot stream. A RateStream owns its tables and runs; what it hands out
 * is the caller's (method_result_free, h2h_free).
 */
#ifndef DHM_RATING_STREAM_H
#define DHM_RATING_STREAM_H

#include "rating/eval.h"
#include "rating/methods.h"

typedef struct RateStream RateStream;

/* The methods ids[0..nm-1], each one that streams; cb (NULL: none) is called after every set
 * or game of each method, as method_run calls it. NULL without memory or for a method that
 * does not stream. */
RateStream *rate_stream_begin(const int *ids, int nm, const RatingParams *p, RatingStepFn cb, void *ctx);
/* What to put in Results.sink. A set whose order is below the one before it is refused with
 * RESULTS_UNORDERED (the stream is then unusable: rate the results in memory instead). */
const ResultsSink *rate_stream_sink(RateStream *s);
/* The result of method ids[i] on res, the Results whose sink it was, once everything was
 * added: what method_run gives. Returns 0, or -1 with err (the method does not apply to res,
 * as method_run says, or out of memory). Once per method. */
int rate_stream_result(RateStream *s, const Results *res, int i, MethodResult *out, char *err, size_t errsz);
/* The head-to-head table h2h_build gives on res (a copy). Returns 0 or -1 (out of memory). */
int rate_stream_h2h(RateStream *s, const Results *res, H2H *out);
void rate_stream_free(RateStream *s);

#endif
