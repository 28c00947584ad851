/* estimation.c — a sampler's accuracy over recorded decisions (estimation.h). */
#include "analysis/estimation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/decisions.h"
#include "game/game.h"
#include "players/estnet.h"
#include "players/estseq.h"

typedef struct AccWalk {
    const EstAccConfig *c;
    EstAccResult *r;
    long game;
    double secs, prep;
    EstSampler s;
    /* est-time=1: each player's timed passes in the games over, by name */
    EstTiming tm;
    struct NamedCounts {
        char name[64];
        EstTimeCounts c;
    } *tc;
    int ntc, ctc, oom;
} AccWalk;

/* The index of the counts kept for a player's name ("" or none: a name of its own, by
 * number), or -1 when out of memory. */
static int time_counts(AccWalk *w, const char *name, int p)
{
    char key[64];
    snprintf(key, sizeof key, "%s", name && *name ? name : "");
    if (!*key)
        snprintf(key, sizeof key, "#%d", p);
    for (int i = 0; i < w->ntc; i++)
        if (!strcmp(w->tc[i].name, key))
            return i;
    if (w->ntc == w->ctc) {
        const int c = w->ctc ? 2 * w->ctc : 8;
        struct NamedCounts *tc = realloc(w->tc, (size_t)c * sizeof *tc);
        if (!tc)
            return -1;
        w->tc = tc;
        w->ctc = c;
    }
    memset(&w->tc[w->ntc], 0, sizeof w->tc[0]);
    snprintf(w->tc[w->ntc].name, sizeof w->tc[0].name, "%s", key);
    return w->ntc++;
}

/* A play decision's certain knowledge (0), or -1 for a gift or counts that do not add up. */
static int play_known(const Decision *d, EstKnown *k)
{
    if (d->exchange)
        return -1;
    int count[NPLAYERS];
    for (int p = 0; p < NPLAYERS; p++)
        count[p] = d->v->ncards[p];
    return est_known(d->v, count, k);
}

static int on_decision(void *ctx, const Decision *d)
{
    AccWalk *w = ctx;
    EstKnown k;
    if (play_known(d, &k))
        return 0;
    const InfoSet *v = d->v;
    EstSampler *s = &w->s;
    Rng rng = rng_seed(rng_derive(w->c->seed, (uint64_t)w->game, (uint64_t)d->ply));
    const double t0 = game_clock_ms();
    est_prepare(s, w->c->est, v, &k, &rng);
    w->prep += (game_clock_ms() - t0) / 1000;
    s->truth = s->kind == EST_ORACLE ? d->truth->hand : NULL;
    EstAccResult *r = w->r;
    r->decisions++;
    for (int j = 0; j < w->c->worlds; j++) {
        Cards hand[NPLAYERS];
        hand[v->me] = v->hand;
        const double t1 = game_clock_ms();
        est_sample(s, &k, &rng, hand);
        w->secs += (game_clock_ms() - t1) / 1000;
        long right = 0, total = 0;
        est_accuracy(hand, d->truth->hand, v->me, &right, &total);
        r->right += right;
        r->total += total;
        r->exact += right == total;
        r->worlds++;
        for (int p = 0; p < NPLAYERS; p++)
            if (p != v->me) {
                Cards dealt = hand[p] & k.deal;
                r->right_dealt += cards_count(dealt & d->truth->hand[p]);
            }
        r->total_dealt += cards_count(k.deal);
    }
    return 0;
}

static int on_game(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    AccWalk *w = ctx;
    if (w->c->max_games && index >= w->c->max_games)
        return 1;
    w->game = index;
    w->r->games++;
    int tc[NPLAYERS];
    if (w->c->est->time) { /* each player's passes in the games before this one */
        for (int p = 0; p < NPLAYERS; p++)
            if ((tc[p] = time_counts(w, names ? names[p] : NULL, p)) < 0) {
                w->oom = 1;
                return 1;
            }
        for (int p = 0; p < NPLAYERS; p++)
            est_time_model(&w->tc[tc[p]].c, w->tm.lp[p]);
        w->s.timing = &w->tm;
    }
    long r0 = w->r->right, t0 = w->r->total;
    int rc = decisions_each(rec, on_decision, w);
    if (w->c->est->time) { /* this game's, learnt once it is over */
        EstTimeCounts add[NPLAYERS];
        memset(add, 0, sizeof add);
        est_time_count(rec, add);
        for (int p = 0; p < NPLAYERS; p++)
            for (int h = 0; h < 2; h++)
                for (int b = 0; b < EST_TBINS; b++)
                    w->tc[tc[p]].c.n[h][b] += add[p].n[h][b];
    }
    if (w->r->total > t0) {
        double a = (double)(w->r->right - r0) / (double)(w->r->total - t0);
        w->r->game_sum += a;
        w->r->game_sq += a * a;
    }
    if (w->c->progress)
        w->c->progress(w->c->progress_ctx, w->r->games);
    return rc;
}

int est_accuracy_run(const EstAccConfig *c, const GameSource *src, EstAccResult *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    AccWalk w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.r = out;
    est_sampler_init(&w.s, c->est);
    int rc = games_each(src, on_game, &w, err, errsz);
    est_sampler_free(&w.s);
    free(w.tc);
    if (w.oom) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    if (rc < 0)
        return -1;
    out->ns_per_world = out->worlds ? 1e9 * w.secs / out->worlds : 0;
    out->us_prepare = out->decisions ? 1e6 * w.prep / out->decisions : 0;
    return 0;
}

/* ---------------------------------------------------------------- training records */

typedef struct DumpWalk {
    FILE *f, *fs;       /* the records; the sequence rows (NULL: none) */
    uint32_t nseq;      /* sequences numbered so far */
    int seq[NPLAYERS];  /* this game's sequence of each viewer (-1: none yet) */
    int nev[NPLAYERS], nplays[NPLAYERS]; /* its events written, and the plays they cover */
    long max_games;
    uint32_t game;
    EstDumpResult *r;
    int failed;
} DumpWalk;

static int dump_decision(void *ctx, const Decision *d)
{
    DumpWalk *w = ctx;
    EstKnown k;
    if (play_known(d, &k))
        return 0;
    const InfoSet *v = d->v;
    EstNetFeat f;
    estnet_features(v, &f);
    uint8_t card[53] = {0}, rec[ESTNET_REC_SIZE];
    for (Cards x = k.deal; x; x &= x - 1) {
        const int c = cards_lowest_bit(x);
        int allowed = 0, label = 0;
        for (int j = 0; j < 4; j++) {
            const int p = f.opp[j];
            if (k.room[p] > 0 && !((k.forbid[p] >> c) & 1))
                allowed |= 1 << j;
            if ((d->truth->hand[p] >> c) & 1)
                label = 1 + j;
        }
        if (!label || !((allowed >> (label - 1)) & 1)) {
            w->r->unlabeled++;
            continue;
        }
        card[estnet_card(c)] = (uint8_t)(label | allowed << 3);
    }
    estnet_record(&f, w->game, card, rec);
    w->r->truncated += f.truncated;
    if (fwrite(rec, sizeof rec, 1, w->f) != 1) {
        w->failed = 1;
        return 1;
    }
    if (w->fs && v->me >= 0 && v->me < NPLAYERS) {
        const int me = v->me;
        if (w->seq[me] < 0)
            w->seq[me] = (int)w->nseq++;
        static __thread EstSeqEv ev[GAME_MAX_PLAYS];
        const int n = v->nplays > w->nplays[me] ? estseq_events(v, w->nplays[me], ev, GAME_MAX_PLAYS) : 0;
        uint8_t row[ESTSEQ_ROW];
        for (int i = 0; i < n; i++) {
            estseq_row_event((uint32_t)w->seq[me], &ev[i], row);
            if (fwrite(row, sizeof row, 1, w->fs) != 1) {
                w->failed = 1;
                return 1;
            }
        }
        w->nev[me] += n;
        if (v->nplays > w->nplays[me])
            w->nplays[me] = v->nplays;
        estseq_row_decision((uint32_t)w->seq[me], w->nev[me], row);
        if (fwrite(row, sizeof row, 1, w->fs) != 1) {
            w->failed = 1;
            return 1;
        }
    }
    w->r->records++;
    return 0;
}

static int dump_game(void *ctx, const GameRecord *rec, const char *const names[NPLAYERS], long index)
{
    (void)names;
    DumpWalk *w = ctx;
    if (w->max_games && index >= w->max_games)
        return 1;
    w->r->games++;
    for (int p = 0; p < NPLAYERS; p++)
        w->seq[p] = -1, w->nev[p] = w->nplays[p] = 0;
    int rc = decisions_each(rec, dump_decision, w);
    w->game++;
    return rc;
}

int est_dump_run(const GameSource *src, FILE *f, FILE *fs, long max_games, uint32_t game_base, EstDumpResult *out,
                 char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    DumpWalk w;
    memset(&w, 0, sizeof w);
    w.f = f;
    w.fs = fs;
    w.max_games = max_games;
    w.game = game_base;
    w.r = out;
    if (fwrite(ESTNET_DUMP_MAGIC, 8, 1, f) != 1 || (fs && fwrite(ESTSEQ_DUMP_MAGIC, 8, 1, fs) != 1)) {
        snprintf(err, errsz, "cannot write the training records");
        return -1;
    }
    int rc = games_each(src, dump_game, &w, err, errsz);
    if (w.failed) {
        snprintf(err, errsz, "cannot write the training records");
        return -1;
    }
    return rc < 0 ? -1 : 0;
}
