/* estseq.h — the learned hand estimator's sequence model (issue 38): the feature model of
 * estnet.h plus a GRU that reads the game's public history, move by move, as the deciding
 * player sees it; its last state is added into the feature model's hidden layer. Same output
 * as estnet.h: logits[estnet_card(bit) * 4 + j] for opponent j (by relative seat).
 *
 * Events (one per play or pass of the history, relative to the viewer; sparse, ESTSEQ_S
 * indices, plus the cards of the meld): the actor (0 = me, 1..4 = opponent j + 1) x what it did
 * (a pass on a single/group/sequence; a lead or a follow with a single/group/sequence); the
 * actor x pass/play x the strength of the meld played or passed on (0..14); the table it
 * answered (kind x top strength); the actor x the meld's size (1..8+); the actor x its cards
 * left after the move (0..15); a revolution, a lock, a cleared table after the move; and the
 * cards played (53, one input row each).
 * GRU (PyTorch's equations, gates r, z, n): gi = sum of the event's rows of si and sc + sb;
 * gh = h hh + hb; r = σ(gi_r + gh_r), z = σ(gi_z + gh_z), n = tanh(gi_n + r gh_n),
 * h' = (1 - z) n + z h; h starts at 0 every game. Its state h after the last event enters the
 * feature model's hidden layer through ws (ESTSEQ_GH x ESTNET_H, no bias).
 *
 * The history only grows within a game, so a player keeps the GRU state between its decisions
 * (EstSeqCache): only the new events are read (estseq_prepare); a cold start reads them all.
 */
#ifndef DHM_ESTSEQ_H
#define DHM_ESTSEQ_H

#include <stdint.h>

#include "players/estnet.h"

#define ESTSEQ_S 378
#define ESTSEQ_GH 48
#define ESTSEQ_G3 (3 * ESTSEQ_GH)
#define ESTSEQ_EW 8 /* sparse indices per event (the cards apart) */

typedef struct EstSeqEv {
    uint16_t idx[ESTSEQ_EW]; /* n of them used */
    int n;
    Cards cards;             /* the meld's cards (move_cards), 0 for a pass */
} EstSeqEv;

typedef struct EstSeq {
    EstNet net;
    float si[ESTSEQ_S][ESTSEQ_G3], sc[53][ESTSEQ_G3], sb[ESTSEQ_G3];
    float hh[ESTSEQ_GH][ESTSEQ_G3], hb[ESTSEQ_G3];
    float ws[ESTSEQ_GH][ESTNET_H];
} EstSeq;

/* The events of v's public history from play `from` on (plays before it are replayed, not
 * returned), at most max of them; returns how many. A history that stops following the turns,
 * or a stalemate, ends the events (as est_features). */
int estseq_events(const InfoSet *v, int from, EstSeqEv *ev, int max);
/* One GRU step: h <- GRU(h, e). */
void estseq_step(const EstSeq *m, const EstSeqEv *e, float h[ESTSEQ_GH]);
/* The logits from the features and the GRU state. */
void estseq_forward(const EstSeq *m, const EstNetFeat *f, const float h[ESTSEQ_GH], float logit[ESTNET_OUT]);

/* The GRU state of up to NPLAYERS viewers' games (one slot per viewer), for incremental use. */
typedef struct EstSeqCache {
    struct {
        int valid, nplays, nev;
        uint64_t key; /* a hash of the game's start and its first nplays plays */
        float h[ESTSEQ_GH];
    } slot[NPLAYERS];
    long cold, warm; /* decisions that started from scratch, and from a kept state */
} EstSeqCache;
/* The logits for v: the GRU state from the cache when its game and history prefix match
 * (c may be NULL: always cold), then the new events, then the forward pass. */
void estseq_logits(const EstSeq *m, EstSeqCache *c, const InfoSet *v, const EstNetFeat *f, float logit[ESTNET_OUT]);

/* Text model files: "dhm estseq 1", '#' comments, "shape G O E H OUT S GH", then the feature
 * model's tensors (as estnet.h) and si, sc, sb, hh, hb, ws. */
int estseq_parse(const char *text, const char *name, EstSeq *m, char *err, size_t errsz);
int estseq_load(const char *path, EstSeq *m, char *err, size_t errsz);
const EstSeq *estseq_builtin(char *err, size_t errsz);
int estseq_option(const char *path, const char *key, const EstSeq **use, EstSeq **own, char *err, size_t errsz);

/* Training records of the sequence (dhm estimate --dump FILE --dump-seq SEQFILE): after the
 * magic, rows of ESTSEQ_ROW bytes: an event row (u32 sequence number, u16 idx[ESTSEQ_EW]
 * padded with ESTSEQ_S, u64 cards as estnet_card bits, u32 0) or, one per record of the
 * --dump file and in its order, a decision row (u32 sequence | 1 << 31, u16 the number of its
 * sequence's events seen at the decision, the rest 0). A sequence is one viewer's game; its
 * event rows come in order, each before the decisions that see it. */
#define ESTSEQ_DUMP_MAGIC "DHMESTQ1"
#define ESTSEQ_ROW 32
void estseq_row_event(uint32_t seq, const EstSeqEv *e, uint8_t out[ESTSEQ_ROW]);
void estseq_row_decision(uint32_t seq, int step, uint8_t out[ESTSEQ_ROW]);

#endif
