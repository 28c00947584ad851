/* seed_pack.c — writes a starting input for fuzz_pack: three packed games of a seeded match
 * (`make fuzz` runs it once). Usage: seed_pack FILE */
#include <stdio.h>
#include <stdlib.h>

#include "game/match.h"
#include "players/players.h"
#include "record/pack.h"

typedef struct Out {
    FILE *f;
    uint8_t buf[PACK_MAX_BYTES];
} Out;

static int on_game(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)sofar;
    Out *o = ctx;
    size_t n = pack_game(rec, o->buf, sizeof o->buf);
    return fwrite(o->buf, 1, n, o->f) == n ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    static Out o;
    static GameRecord rec;
    o.f = fopen(argv[1], "wb");
    if (!o.f)
        return 1;
    Player *pl[NPLAYERS];
    char err[128];
    for (int p = 0; p < NPLAYERS; p++)
        if (player_create(p % 2 ? "random" : "simple", (uint64_t)p, &pl[p], err, sizeof err))
            return 1;
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 3;
    MatchResult res;
    int rc = match_run(pl, &cfg, NULL, on_game, &o, &rec, &res);
    for (int p = 0; p < NPLAYERS; p++)
        player_destroy(pl[p]);
    return fclose(o.f) || rc ? 1 : 0;
}
