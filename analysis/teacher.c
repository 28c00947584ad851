/* teacher.c — decisions labelled by a Monte Carlo teacher (see teacher.h). */
#include "analysis/teacher.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "game/workers.h"
#include "players/mc.h"
#include "players/players.h"

void teacher_opts_default(TeacherOpts *o)
{
    memset(o, 0, sizeof *o);
    o->games = 1000;
    o->teacher = "mc";
    o->worlds = 64;
    o->tau = 0.05;
    o->temp = 1;
    o->holdout = 0.1;
    o->seed = 1;
    o->jobs = 1;
}

/* One student: moves by the policy, and has every decision with a choice valued first. */
typedef struct Student {
    const TeacherOpts *o;
    const PolicyWeights *w;
    Player *teacher;
    TrainData *out;
    Rng rng;
    uint64_t vseed; /* the teacher's worlds: a stream of its own for each decision */
    int held, failed;
} Student;

/* softmax((q - max q) / tau) */
static void targets(const double *q, int n, double tau, double *t)
{
    double mx = q[0], z = 0;
    for (int i = 1; i < n; i++)
        mx = q[i] > mx ? q[i] : mx;
    for (int i = 0; i < n; i++)
        z += t[i] = exp((q[i] - mx) / tau);
    for (int i = 0; i < n; i++)
        t[i] /= z;
}

static Move st_play(Player *self, const InfoSet *v)
{
    Student *s = self->impl;
    Move mv[MOVEGEN_MAX];
    const int n = movegen(v->hand, v->table, v->rev, v->lock, mv);
    if (n <= 1)
        return n ? mv[0] : move_pass();
    PolicyCtx c;
    policy_ctx_info(&c, v);
    double q[MOVEGEN_MAX], t[MOVEGEN_MAX];
    if (mc_action_values(s->teacher, v, mv, n, s->o->worlds, rng_next(&s->rng), q) == 0) {
        targets(q, n, s->o->tau, t);
        s->failed |= train_add_play_soft(s->out, &c, mv, n, t, s->held) != 0;
    }
    return mv[policy_pick(s->w, &c, mv, n, s->o->temp, &s->rng)];
}

static Cards st_exchange(Player *self, const InfoSet *v, int n)
{
    Student *s = self->impl;
    Cards gifts[128];
    const int k = policy_gifts(v->hand, n, gifts);
    double q[128], t[128];
    if (k >= 2 && mc_gift_values(s->teacher, v, gifts, k, s->o->worlds, rng_next(&s->rng), q) == 0) {
        targets(q, k, s->o->tau, t);
        s->failed |= train_add_gift_soft(s->out, v->hand, gifts, k, t, s->held) != 0;
    }
    return policy_pick_gift(s->w, v->hand, n, s->o->temp, &s->rng);
}

typedef struct Job {
    const TeacherOpts *o;
    const PolicyWeights *w;
    TrainData *games; /* one per game, appended in order at the end */
    int next, failed, done;
    char err[400];
    pthread_mutex_t mu;
} Job;

/* Plays game `index` (random seats, most games with an exchange between random classes). */
static int play_one(Job *j, Player *teacher, long index, GameRecord *rec)
{
    const TeacherOpts *o = j->o;
    Rng r = rng_seed(rng_derive(o->seed, 0x74656163 /* "teac" */, (uint64_t)index));
    GameSetup su;
    memset(&su, 0, sizeof su);
    su.number = 1;
    for (int s = 0; s < NPLAYERS; s++)
        su.seat[s] = (uint8_t)s;
    for (int i = NPLAYERS - 1; i > 0; i--) {
        int k = (int)rng_below(&r, (uint32_t)(i + 1));
        uint8_t x = su.seat[i];
        su.seat[i] = su.seat[k];
        su.seat[k] = x;
    }
    const int exchange = rng_below(&r, 5) != 0;
    su.dealer = (int)rng_below(&r, NPLAYERS);
    for (int p = 0; p < NPLAYERS; p++)
        su.cls[p] = (int8_t)(exchange ? p : -1);
    if (exchange) {
        for (int i = NPLAYERS - 1; i > 0; i--) {
            int k = (int)rng_below(&r, (uint32_t)(i + 1));
            int8_t x = su.cls[i];
            su.cls[i] = su.cls[k];
            su.cls[k] = x;
        }
        su.dealer = game_player_of_class(su.cls, 0);
    }
    TrainData *out = &j->games[index];
    Student st[NPLAYERS];
    Player pl[NPLAYERS];
    Player *pp[NPLAYERS];
    const int held = train_held_out(o->seed, index, o->holdout);
    for (int p = 0; p < NPLAYERS; p++) {
        st[p] = (Student){o, j->w, teacher, out, rng_seed(rng_derive(o->seed, (uint64_t)index, (uint64_t)p)), 0, held, 0};
        memset(&pl[p], 0, sizeof pl[p]);
        pl[p].kind = "student";
        pl[p].impl = &st[p];
        pl[p].play = st_play;
        pl[p].exchange = st_exchange;
        pp[p] = &pl[p];
    }
    int rc = game_play(pp, &su, &r, NULL, rec);
    out->games = 1;
    out->held_games = held;
    for (int p = 0; p < NPLAYERS; p++)
        rc |= st[p].failed;
    return rc;
}

static void *worker(void *arg)
{
    Job *j = arg;
    Player *teacher = NULL;
    char err[256];
    GameRecord *rec = malloc(sizeof *rec);
    if (!rec || player_create(j->o->teacher, rng_derive(j->o->seed, 0x7465, 0), &teacher, err, sizeof err)) {
        if (!rec)
            snprintf(err, sizeof err, "out of memory");
        free(rec);
        pthread_mutex_lock(&j->mu);
        if (!j->failed)
            snprintf(j->err, sizeof j->err, "--teacher %.100s: %.250s", j->o->teacher, err);
        j->failed = 1;
        pthread_mutex_unlock(&j->mu);
        return NULL;
    }
    if (!mc_is(teacher)) {
        pthread_mutex_lock(&j->mu);
        if (!j->failed)
            snprintf(j->err, sizeof j->err, "--teacher %.100s: the teacher must be an mc or search player", j->o->teacher);
        j->failed = 1;
        pthread_mutex_unlock(&j->mu);
        player_destroy(teacher);
        free(rec);
        return NULL;
    }
    for (;;) {
        int i = workers_next(&j->mu, &j->next, (int)j->o->games);
        if (i < 0)
            break;
        int bad = play_one(j, teacher, i, rec);
        pthread_mutex_lock(&j->mu);
        j->done++;
        if (bad && !j->failed) {
            j->failed = 1;
            snprintf(j->err, sizeof j->err, "out of memory");
        }
        pthread_mutex_unlock(&j->mu);
    }
    player_destroy(teacher);
    free(rec);
    return NULL;
}

static void tick(void *arg)
{
    Job *j = arg;
    pthread_mutex_lock(&j->mu);
    long done = j->done;
    pthread_mutex_unlock(&j->mu);
    if (j->o->progress)
        j->o->progress(j->o->progress_ctx, done, j->o->games);
}

int teacher_data(TrainData *d, const PolicyWeights *w, const TeacherOpts *o, char *err, size_t errsz)
{
    if (o->games <= 0)
        return 0;
    if (o->games > 100000000) {
        snprintf(err, errsz, "too many games");
        return -1;
    }
    Job j;
    memset(&j, 0, sizeof j);
    j.o = o;
    j.w = w;
    j.games = calloc((size_t)o->games, sizeof *j.games);
    if (!j.games) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    pthread_mutex_init(&j.mu, NULL);
    workers_run(o->jobs, worker, &j, tick);
    pthread_mutex_destroy(&j.mu);
    int rc = j.failed ? -1 : 0;
    if (rc)
        snprintf(err, errsz, "%s", j.err);
    for (long i = 0; i < o->games; i++) {
        if (!rc && train_data_append(d, &j.games[i])) {
            snprintf(err, errsz, "out of memory");
            rc = -1;
        }
        train_data_free(&j.games[i]);
    }
    free(j.games);
    return rc;
}
