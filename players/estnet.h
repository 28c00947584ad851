/* estnet.h — the learned hand estimator (issue 38, the feature model): a small network that
 * reads features of the information set (never a hidden card) and gives, for every card, a
 * distribution over the four opponents who may hold it. Used by the `net` world sampler
 * (players/estimate.h), dumped for training by `dhm estimate --dump`, trained by
 * tools/train_estnet.sh.
 *
 * Opponents are numbered by relative seat: opponent j (0..3) sits j + 1 seats after the viewer.
 *
 * Features (sparse: a list of active indices, each with a count):
 *   global (ESTNET_G): my hand (53 cards), my class at game start (unknown, daifugo..daihinmin),
 *     a revolution now, plays so far (/8, 16 bins), the table's kind (none, single, group,
 *     sequence) and its top card's strength (0..14), a lock, players out (0..4);
 *   per opponent (ESTNET_O, one encoder shared by the four): its relative seat, its class at
 *     game start, its cards now and after the exchange (0..15), whether it passed in this trick,
 *     whether it is out, whether it holds the cards of my exchange, every play and pass it made
 *     this game by situation (lead/follow x single/group/sequence x its hand size; passes on a
 *     single/group/sequence x size: the 27 buckets of est_features) x the strength of the meld
 *     (0..14), and the cards it played.
 * Network: each sparse set through its embedding (sum of rows + bias, ReLU, ESTNET_E wide),
 * the five concatenated into a hidden layer (ESTNET_H, ReLU), then 53 x 4 logits.
 */
#ifndef DHM_ESTNET_H
#define DHM_ESTNET_H

#include <stdio.h>

#include "game/player.h"

#define ESTNET_G 101
#define ESTNET_O 503
#define ESTNET_E 64
#define ESTNET_H 128
#define ESTNET_OUT (53 * 4)
#define ESTNET_GW 24 /* most active global features in a dump record */
#define ESTNET_OW 64 /* most active features per opponent in a dump record */

typedef struct EstNetFeat {
    int opp[4];                  /* the opponents' player numbers by relative seat */
    int ng, no[4];
    uint16_t g[ESTNET_GW];
    uint16_t o[4][ESTNET_OW];
    uint8_t ow[4][ESTNET_OW];    /* counts of the opponents' features */
    int truncated;               /* features dropped for want of room (never in real games) */
} EstNetFeat;

typedef struct EstNet {
    float wg[ESTNET_G][ESTNET_E], bg[ESTNET_E];
    float wo[ESTNET_O][ESTNET_E], bo[ESTNET_E];
    float w1[5 * ESTNET_E][ESTNET_H], b1[ESTNET_H];
    float w2[ESTNET_H][ESTNET_OUT], b2[ESTNET_OUT];
} EstNet;

/* A card's index 0..52 in the features and the logits: bits 4..55 (the 3s .. the 2s), the joker. */
static inline int estnet_card(int bit) { return bit >= JOKER_BIT ? 52 : bit - 4; }

/* The features of v (its public part and v->hand only). */
void estnet_features(const InfoSet *v, EstNetFeat *f);
/* logit[estnet_card(bit) * 4 + j]: the card, opponent j (by relative seat). */
void estnet_forward(const EstNet *n, const EstNetFeat *f, float logit[ESTNET_OUT]);

/* The same, with extra[ESTNET_H] (NULL: none) added into the hidden layer before its ReLU. */
void estnet_forward_add(const EstNet *n, const EstNetFeat *f, const float *extra, float logit[ESTNET_OUT]);

/* Text model files: the magic line, '#' comments (the command and seed that made it), a
 * "shape G O E H OUT" line, then each tensor as "NAME ROWS COLS" and its numbers. */
int estnet_parse(const char *text, const char *name, EstNet *n, char *err, size_t errsz);
int estnet_load(const char *path, EstNet *n, char *err, size_t errsz);
/* The text reader, shared with the sequence model (estseq.c). */
typedef struct EstNetReader {
    const char *s, *name;
    int line;
    char *err;
    size_t errsz;
} EstNetReader;
/* The next line that is not blank or a comment, trimmed, as *p..*e; 0 at the end. */
int estnet_next_line(EstNetReader *r, const char **p, const char **e);
/* "NAME ROWS COLS" and its rows of numbers into out; -1 with r->err set. */
int estnet_read_tensor(EstNetReader *r, const char *tname, int rows, int cols, float *out);
/* The first line must be `magic`, the next the shape line `shape` (kind names the model in the
 * error); 0, or -1 with r->err set. */
int estnet_read_head(EstNetReader *r, const char *magic, const char *kind, const char *shape);
/* 0 when nothing follows the last tensor; else -1 with r->err set. */
int estnet_read_end(EstNetReader *r);
/* The eight tensors of the feature model, in order. */
int estnet_read_body(EstNetReader *r, EstNet *n);
/* The built-in model (players/estnet.weights), or NULL with the reason. */
const EstNet *estnet_builtin(char *err, size_t errsz);
/* A model option (wtext_option): with path, that file in a fresh block (*own, the caller frees
 * it); without, the built-in model. *use gets the one in use. 0 or -1 ("KEY=PATH: why"). */
int estnet_option(const char *path, const char *key, const EstNet **use, EstNet **own, char *err, size_t errsz);

/* One training record (tools/train_estnet.py reads them): the features and, for each card,
 * label | allowed << 3 where label is 1 + the opponent holding it when it is to be guessed
 * (hidden, not known), else 0, and allowed the opponents that may hold it (bit j). */
#define ESTNET_DUMP_MAGIC "DHMESTN1"
#define ESTNET_REC_SIZE (4 + 2 * ESTNET_GW + 4 * 2 * ESTNET_OW + 4 * ESTNET_OW + 53)
void estnet_record(const EstNetFeat *f, uint32_t game, const uint8_t card[53], uint8_t out[ESTNET_REC_SIZE]);

#endif
