/* registry.c — player specs: parsing NAME[:key=value...], option access, the kind table. */
#include "players/players.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

typedef int (*CreateFn)(PlayerSpec *s, uint64_t seed, Player *p, char *err, size_t errsz);

static const struct {
    const char *kind;
    CreateFn create;
} KINDS[] = {
    {"random", random_player_create},
    {"simple", simple_player_create},
    {"devkit", devkit_player_create},
    {"policy", policy_player_create},
    {"mc", mc_player_create},
    {"search", search_player_create},
};

const char *player_kinds(void) { return "random, simple, devkit, policy, mc, search"; }

int player_spec_parse(const char *text, PlayerSpec *out, char *err, size_t errsz)
{
    memset(out, 0, sizeof *out);
    const char *p = text;
    size_t k = strcspn(p, ":");
    if (k == 0 || k >= sizeof out->kind) {
        snprintf(err, errsz, "bad player spec '%s': expected NAME[:key=value...]", text);
        return -1;
    }
    memcpy(out->kind, p, k);
    p += k;
    while (*p == ':') {
        p++;
        size_t len = strcspn(p, ":");
        const char *eq = memchr(p, '=', len);
        if (!eq || eq == p) {
            snprintf(err, errsz, "bad option '%.*s' in player spec '%s': expected key=value", (int)len, p, text);
            return -1;
        }
        size_t kl = (size_t)(eq - p), vl = len - kl - 1;
        if (out->nopts >= SPEC_MAX_OPTS || kl >= sizeof out->opt[0].key || vl >= sizeof out->opt[0].val ||
            vl == 0) {
            snprintf(err, errsz, "bad option '%.*s' in player spec '%s'", (int)len, p, text);
            return -1;
        }
        for (int i = 0; i < out->nopts; i++)
            if (strlen(out->opt[i].key) == kl && !memcmp(out->opt[i].key, p, kl)) {
                snprintf(err, errsz, "option '%.*s' given twice in player spec '%s'", (int)kl, p, text);
                return -1;
            }
        memcpy(out->opt[out->nopts].key, p, kl);
        memcpy(out->opt[out->nopts].val, eq + 1, vl);
        out->nopts++;
        p += len;
    }
    return 0;
}

static int find_opt(PlayerSpec *s, const char *key)
{
    for (int i = 0; i < s->nopts; i++)
        if (!strcmp(s->opt[i].key, key)) {
            s->opt[i].used = 1;
            return i;
        }
    return -1;
}

const char *spec_get_str(PlayerSpec *s, const char *key, const char *def)
{
    int i = find_opt(s, key);
    return i < 0 ? def : s->opt[i].val;
}

int spec_get_int(PlayerSpec *s, const char *key, long lo, long hi, long def, long *out, char *err, size_t errsz)
{
    int i = find_opt(s, key);
    if (i < 0) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    long v = strtol(s->opt[i].val, &end, 10);
    if (errno || *end || v < lo || v > hi) {
        snprintf(err, errsz, "%s: option %s=%s must be an integer in [%ld, %ld]", s->kind, key, s->opt[i].val, lo,
                 hi);
        return -1;
    }
    *out = v;
    return 0;
}

int spec_get_double(PlayerSpec *s, const char *key, double lo, double hi, double def, double *out, char *err,
                    size_t errsz)
{
    int i = find_opt(s, key);
    if (i < 0) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s->opt[i].val, &end);
    if (errno || *end || !(v >= lo && v <= hi)) {
        snprintf(err, errsz, "%s: option %s=%s must be a number in [%g, %g]", s->kind, key, s->opt[i].val, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int spec_check_unused(const PlayerSpec *s, const char *valid, char *err, size_t errsz)
{
    for (int i = 0; i < s->nopts; i++)
        if (!s->opt[i].used) {
            int n = snprintf(err, errsz, "%s: unknown option '%s' (valid: %s)", s->kind, s->opt[i].key,
                             valid && *valid ? valid : "none");
            if (n >= 0 && (size_t)n >= errsz) /* the list does not fit: never a cut-off list */
                snprintf(err, errsz, "%s: unknown option '%s' (docs/players.md lists every option of %s)", s->kind,
                         s->opt[i].key, s->kind);
            return -1;
        }
    return 0;
}

int player_create(const char *spec, uint64_t seed, Player **out, char *err, size_t errsz)
{
    PlayerSpec s;
    *out = NULL;
    if (player_spec_parse(spec, &s, err, errsz))
        return -1;
    for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++) {
        if (strcmp(KINDS[i].kind, s.kind))
            continue;
        Player *p = calloc(1, sizeof *p);
        if (!p) {
            snprintf(err, errsz, "out of memory");
            return -1;
        }
        p->kind = KINDS[i].kind;
        snprintf(p->name, sizeof p->name, "%s", spec);
        if (KINDS[i].create(&s, seed, p, err, errsz)) {
            player_destroy(p);
            return -1;
        }
        *out = p;
        return 0;
    }
    snprintf(err, errsz, "unknown player kind '%s' (valid: %s)", s.kind, player_kinds());
    return -1;
}

void player_destroy(Player *p)
{
    if (!p)
        return;
    if (p->destroy)
        p->destroy(p);
    free(p);
}

int player_split_list(const char *list, char specs[][128], int max)
{
    int n = 0;
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (n >= max || len == 0 || len >= 128)
            return -1;
        memcpy(specs[n], p, len);
        specs[n][len] = 0;
        n++;
        p += len;
        if (!*p)
            break;
        p++;
    }
    return n;
}

uint64_t player_seed(uint64_t match_seed, int p) { return rng_derive(match_seed, 0x706c6179, (uint64_t)p); }
