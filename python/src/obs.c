/* obs.c — encoding an InfoSet as an observation vector (layout in obs.h). */
#include "obs.h"

#include <string.h>

const ObsField OBS_FIELDS[] = {
    {"hand", OBS_HAND, 53},           {"played", OBS_PLAYED, 265},      {"table_cells", OBS_TABLE_CELLS, 60},
    {"table_joker", OBS_TABLE_JOKER, 1}, {"table_kind", OBS_TABLE_KIND, 5}, {"table_size", OBS_TABLE_SIZE, 1},
    {"table_owner", OBS_TABLE_OWNER, 5}, {"ncards", OBS_NCARDS, 5},     {"passed", OBS_PASSED, 5},
    {"finished", OBS_FINISHED, 5},    {"classes", OBS_CLASSES, 5},      {"revolution", OBS_REV, 1},
    {"lock", OBS_LOCK, 1},            {"npass", OBS_NPASS, 1},          {"turn", OBS_TURN, 5},
    {"exchange", OBS_EXCHANGE, 1},    {"given", OBS_GIVEN, 53},         {"received", OBS_RECEIVED, 53},
};
const int OBS_NFIELDS = (int)(sizeof OBS_FIELDS / sizeof OBS_FIELDS[0]);

/* The four bytes of a column's nibble, as one little-endian word (0/1 per suit). */
static const uint32_t NIBBLE_BYTES[16] = {
    0x00000000, 0x00000001, 0x00000100, 0x00000101, 0x00010000, 0x00010001, 0x00010100, 0x00010101,
    0x01000000, 0x01000001, 0x01000100, 0x01000101, 0x01010000, 0x01010001, 0x01010100, 0x01010101,
};

/* Columns lo..hi of c (4 bytes each) from out. */
static inline void put_cols(Cards c, int lo, int hi, int8_t *out)
{
    for (int col = lo; col <= hi; col++, out += 4) {
        uint32_t w = NIBBLE_BYTES[(c >> (4 * col)) & 15];
        memcpy(out, &w, 4);
    }
}

void obs_cards(Cards c, int8_t *out)
{
    put_cols(c, COL_MIN, COL_MAX, out);
    out[52] = (int8_t)((c >> JOKER_BIT) & 1);
}

void obs_played_by(const InfoSet *v, Cards played_by[NPLAYERS])
{
    memset(played_by, 0, NPLAYERS * sizeof *played_by);
    for (int i = 0; i < v->nplays && i < GAME_MAX_PLAYS; i++)
        if (v->plays[i].player < NPLAYERS)
            played_by[v->plays[i].player] |= move_cards(v->plays[i].move);
}

void obs_encode(const InfoSet *v, int give_n, const Cards played_by[NPLAYERS], int8_t *out)
{
    int rel[NPLAYERS]; /* rel[k] = the player at relative seat k */
    int seat_of_me = 0, k_of[NPLAYERS];
    for (int s = 0; s < NPLAYERS; s++)
        if (v->seat[s] == v->me)
            seat_of_me = s;
    for (int k = 0; k < NPLAYERS; k++) {
        rel[k] = v->seat[(seat_of_me + k) % NPLAYERS] % NPLAYERS;
        k_of[rel[k]] = k;
    }
    memset(out + OBS_TABLE_CELLS, 0, OBS_GIVEN - OBS_TABLE_CELLS);
    obs_cards(v->hand, out + OBS_HAND);
    for (int k = 0; k < NPLAYERS; k++)
        obs_cards(played_by[rel[k]], out + OBS_PLAYED + 53 * k);
    const Move t = v->table;
    put_cols(move_cells(t), 0, COL_TOP, out + OBS_TABLE_CELLS);
    out[OBS_TABLE_JOKER] = (int8_t)move_uses_joker(t);
    out[OBS_TABLE_KIND + (t.type <= MOVE_JOKER ? t.type : 0)] = 1;
    out[OBS_TABLE_SIZE] = (int8_t)t.n;
    if (t.type != MOVE_PASS)
        out[OBS_TABLE_OWNER + k_of[v->owner % NPLAYERS]] = 1;
    int place[NPLAYERS] = {0};
    for (int i = 0; i < v->nout && i < NPLAYERS; i++)
        place[v->order[i] % NPLAYERS] = i + 1;
    for (int k = 0; k < NPLAYERS; k++) {
        const int p = rel[k];
        out[OBS_NCARDS + k] = (int8_t)v->ncards[p];
        out[OBS_PASSED + k] = (int8_t)((v->passed >> p) & 1);
        out[OBS_FINISHED + k] = (int8_t)place[p];
        out[OBS_CLASSES + k] = v->cls[p];
    }
    out[OBS_REV] = (int8_t)(v->rev != 0);
    out[OBS_LOCK] = (int8_t)(v->lock != 0);
    out[OBS_NPASS] = (int8_t)v->npass;
    out[OBS_TURN + (give_n ? 0 : k_of[v->turn % NPLAYERS])] = 1; /* the exchange: the giver */
    out[OBS_EXCHANGE] = (int8_t)give_n;
    obs_cards(v->given, out + OBS_GIVEN);
    obs_cards(v->received, out + OBS_RECEIVED);
}
