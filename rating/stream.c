/* stream.c — rating results as they are read (see stream.h).
 *
 * The tables grow with the players (doubling) while results arrive and take their exact size
 * at the end. A set's five entries are put in name order as results_sort_sets would: by the
 * players' places in name order once the players seem settled (a table rebuilt at most once
 * per as many sets as there are players), by comparing names before that. */
#include "rating/stream.h"

#include <stdlib.h>
#include <string.h>

struct RateStream {
    int nm;
    int ids[M_COUNT];
    MethodStream *run[M_COUNT]; /* by position in ids; NULL once its result is taken */
    RatingStepFn cb;
    void *ctx;
    ResultsSink sink;
    int cap;          /* players the tables hold */
    H2H sets, games;  /* head-to-head by sets and by games, cap x cap */
    int *place;       /* results_name_places of the first place_n players */
    int place_n;
    long since;       /* sets since place was last rebuilt */
    double last_order;
    int any_set, fitted;
};

static int grow(RateStream *s, int nplayers)
{
    if (nplayers <= s->cap)
        return 0;
    int cap = s->cap > 0 ? s->cap : 8;
    while (cap < nplayers)
        cap *= 2;
    if (h2h_resize(&s->sets, cap) || h2h_resize(&s->games, cap))
        return -1;
    s->cap = cap;
    return 0;
}

static void sort_entries(RateStream *s, const Results *r, RSet *e)
{
    if (s->place_n != r->nplayers && s->since >= r->nplayers) {
        int *place = results_name_places(r);
        if (place) { /* else names are compared */
            free(s->place);
            s->place = place;
            s->place_n = r->nplayers;
        }
        s->since = 0;
    }
    s->since++;
    results_sort_entries(r, s->place_n == r->nplayers ? s->place : NULL, e);
}

static int sink_set(void *ctx, const Results *r, const RSet *set)
{
    RateStream *s = ctx;
    if (s->any_set && set->order < s->last_order)
        return RESULTS_UNORDERED;
    if (grow(s, r->nplayers))
        return -1;
    s->any_set = 1;
    s->last_order = set->order;
    RSet e = *set;
    sort_entries(s, r, &e);
    h2h_add_set(&s->sets, &e);
    for (int i = 0; i < s->nm; i++)
        if (method_stream_set(s->run[i], r->nplayers, &e, s->cb, s->ctx))
            return -1;
    return 0;
}

static int sink_game(void *ctx, const Results *r, const RGame *g, const float *pair)
{
    RateStream *s = ctx;
    if (grow(s, r->nplayers))
        return -1;
    h2h_add_game(&s->games, g);
    for (int i = 0; i < s->nm; i++)
        if (method_stream_game(s->run[i], r->nplayers, g, pair, s->cb, s->ctx))
            return -1;
    return 0;
}

RateStream *rate_stream_begin(const int *ids, int nm, const RatingParams *p, RatingStepFn cb, void *ctx)
{
    RateStream *s = calloc(1, sizeof *s);
    if (!s || nm < 0 || nm > M_COUNT || h2h_init(&s->sets, 0) || h2h_init(&s->games, 0)) {
        rate_stream_free(s);
        return NULL;
    }
    s->cb = cb;
    s->ctx = ctx;
    s->sink = (ResultsSink){sink_set, sink_game, s};
    for (int i = 0; i < nm; i++) {
        s->ids[i] = ids[i];
        s->run[i] = method_stream_begin((MethodId)ids[i], p, 0);
        s->nm = i + 1;
        if (!s->run[i]) {
            rate_stream_free(s);
            return NULL;
        }
    }
    return s;
}

const ResultsSink *rate_stream_sink(RateStream *s) { return &s->sink; }

/* The tables at their final size, res->nplayers. */
static int fit(RateStream *s, const Results *res)
{
    if (s->fitted)
        return 0;
    if (h2h_resize(&s->sets, res->nplayers) || h2h_resize(&s->games, res->nplayers))
        return -1;
    s->cap = res->nplayers;
    s->fitted = 1;
    return 0;
}

int rate_stream_result(RateStream *s, const Results *res, int i, MethodResult *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    if (i < 0 || i >= s->nm || !s->run[i]) {
        snprintf(err, errsz, "no such method in the stream");
        return -1;
    }
    if (fit(s, res)) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    const H2H *h = method_info((MethodId)s->ids[i])->setwise ? &s->sets : &s->games;
    int rc = method_stream_end(s->run[i], res, h, out, err, errsz);
    s->run[i] = NULL;
    return rc;
}

int rate_stream_h2h(RateStream *s, const Results *res, H2H *out)
{
    if (fit(s, res) || h2h_init(out, res->nplayers))
        return -1;
    const H2H *h = res->nsets > 0 ? &s->sets : &s->games;
    const size_t n = (size_t)res->nplayers, nn = n * n;
    memcpy(out->wins, h->wins, nn * sizeof *h->wins);
    memcpy(out->draws, h->draws, nn * sizeof *h->draws);
    memcpy(out->games, h->games, nn * sizeof *h->games);
    memcpy(out->sets, h->sets, n * sizeof *h->sets);
    return 0;
}

void rate_stream_free(RateStream *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nm; i++)
        method_stream_abandon(s->run[i]);
    h2h_free(&s->sets);
    h2h_free(&s->games);
    free(s->place);
    free(s);
}
