/* test_view.c — dhm view and its analysis:
 *   - the layout of a game (analysis/gameview) over many seeded games and blaux5: every play once,
 *     in order, tricks from clear to clear, places and points as the record says;
 *   - the terminal, HTML and JSON views of blaux5 (skipped when ../shared is absent) and of dhm's
 *     own records, checked against the kifu text itself (read here, not by dhm): every play shown
 *     once and in order as the record writes it, the dealt hands, classes and points; 80 columns;
 *     colour only when asked;
 *   - the page in headless Chromium: no console or network error, and a screenshot that a second
 *     page, reading its pixels, finds is not blank;
 *   - the analysis agrees with dhm errorrate on the same seed (every loss, per player judged and
 *     skipped), does not depend on --jobs, keeps result - average = luck - loss, and marks a
 *     passed-up certain win very bad;
 *   - stored analyses: packed and read back, damaged bytes refused; --save, and dhm report's games
 *     section; bad input is one line and a non-zero exit, never a partial page. */
#include "testutil.h"

#include <ctype.h>
#include <sqlite3.h>

#include "analysis/gameview.h"
#include "analysis/review.h"
#include "players/endgame.h"
#include "record/kifu.h"
#include "report/viewfmt.h"
#include "record/replay.h"

/* ---- small helpers ---- */

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* Runs a command; stdout into out_path, stderr into err_path; returns the exit status. */
static int run_to(const char *out_path, const char *err_path, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    Proc p;
    proc_start(&p, out_path, err_path, "%s", cmd);
    return proc_wait(&p, 300);
}

static GameRecord *recs;
static int nrecs;

static int keep_rec(void *ctx, const GameRecord *rec, const MatchResult *sofar)
{
    (void)ctx;
    (void)sofar;
    recs[nrecs++] = *rec;
    return 0;
}

static void play_records(const char *const specs[5], int games, uint64_t seed)
{
    Player *pl[5];
    MatchResult res;
    nrecs = 0;
    test_match_each(specs, games, seed, pl, &res, keep_rec, NULL);
    test_players_free(pl);
}

/* ---- the layout of a game ---- */

static void check_layout(const GameRecord *rec)
{
    static GameView v;
    char err[256];
    if (gameview_build(rec, &v, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(v.nplays, rec->nplays);
    int at = 0, prev_clear = 1;
    for (int t = 0; t < v.ntricks; t++) {
        const ViewTrick *tr = &v.tricks[t];
        assert_int_equal(tr->first, at); /* tricks cover the plays in order, without gaps */
        assert_true(tr->n >= 1);
        assert_int_equal(tr->leader, rec->plays[at].player);
        assert_true(prev_clear); /* a trick starts after a clear (or the game's start) */
        for (int i = at; i < at + tr->n; i++) {
            const ViewPlay *p = &v.plays[i];
            assert_int_equal(p->ply, i);
            assert_int_equal(p->trick, t);
            assert_int_equal(p->player, rec->plays[i].player);
            assert_true(move_eq(p->move, rec->plays[i].move));
            if (i < at + tr->n - 1)
                assert_false(p->ev & EV_CLEAR);
            if (p->place >= 0)
                assert_int_equal(rec->result[p->player], p->place);
            if (p->eight)
                assert_true(move_is_eight(p->move));
        }
        at += tr->n;
        prev_clear = (v.plays[at - 1].ev & EV_CLEAR) != 0;
    }
    assert_int_equal(at, rec->nplays);
    for (int c = 0; c < 5; c++) {
        assert_int_equal(rec->result[v.order[c]], c);
        assert_int_equal(v.points[v.order[c]], 5 - c);
    }
    if (rec->cls[0] >= 0) { /* the exchange: 2 + 1 cards from the poor, 2 + 1 chosen by the rich */
        assert_int_equal(v.ngifts, 4);
        for (int k = 0; k < 4; k++) {
            assert_int_equal(v.gifts[k].cards, rec->changed[v.gifts[k].from]);
            assert_int_equal(cards_count(v.gifts[k].cards), rec->cls[v.gifts[k].from] % 4 == 0 ? 2 : 1);
            assert_int_equal(rec->cls[v.gifts[k].from] + rec->cls[v.gifts[k].to], 4);
        }
    } else {
        assert_int_equal(v.ngifts, 0);
    }
}

static void test_layout(void **state)
{
    (void)state;
    static const char *const specs[5] = {"random", "simple", "random", "policy", "random"};
    play_records(specs, 300, 11);
    long revolutions = 0, eights = 0;
    for (int g = 0; g < nrecs; g++) {
        check_layout(&recs[g]);
        for (int i = 0; i < recs[g].nplays; i++) {
            revolutions += move_is_revolution(recs[g].plays[i].move);
            eights += move_is_eight(recs[g].plays[i].move);
        }
    }
    assert_true(revolutions > 5 && eights > 100); /* the cases worth showing were there */
    /* a record that breaks the rules is refused */
    GameRecord *bad = malloc(sizeof *bad);
    *bad = recs[0];
    bad->plays[1].move = bad->plays[0].move; /* the same card twice */
    static GameView v;
    char err[256];
    assert_int_equal(gameview_build(bad, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "is not legal"));
    free(bad);
    const char *path = shared_file("data/blaux5.kifu");
    if (!path)
        return;
    FILE *f = fopen(path, "r");
    KifuReader r;
    kifu_reader_init(&r, f, "blaux5");
    KifuGame *kg = malloc(sizeof *kg);
    int n = 0;
    while (kifu_next(&r, kg, err, sizeof err) == 1) {
        assert_int_equal(kifu_to_record(kg, "blaux5", &recs[0], err, sizeof err), 0);
        check_layout(&recs[0]);
        n++;
    }
    assert_int_equal(n, 100);
    free(kg);
    kifu_reader_free(&r);
    fclose(f);
}

/* ---- the kifu text, read here (not by dhm) ---- */

#define MAXG 128
typedef struct KGame {
    int number;
    int nplays;
    char plays[GAME_MAX_PLAYS][24]; /* the moves as written, times stripped */
    int result[5];
    char dealt[5][200];            /* the `dealt` groups as written */
} KGame;

static int read_kifu(const char *text, KGame *g, int max)
{
    int n = -1;
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char buf[16384];
        size_t len = strcspn(line, "\n");
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1), line);
        if (!strncmp(buf, "game ", 5)) {
            if (++n >= max)
                return max;
            memset(&g[n], 0, sizeof g[n]);
            g[n].number = atoi(buf + 5);
        } else if (n >= 0 && !strncmp(buf, "play", 4)) {
            char *save = NULL;
            for (char *t = strtok_r(buf + 4, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
                char *br = strchr(t, '[');
                if (br)
                    *br = 0;
                if (*t)
                    snprintf(g[n].plays[g[n].nplays++], 24, "%s", t);
            }
        } else if (n >= 0 && !strncmp(buf, "result", 6)) {
            sscanf(buf + 6, "%d %d %d %d %d", &g[n].result[0], &g[n].result[1], &g[n].result[2], &g[n].result[3],
                   &g[n].result[4]);
        } else if (n >= 0 && !strncmp(buf, "dealt", 5)) {
            char *p = buf + 5;
            for (int k = 0; k < 5; k++) {
                char *o = strchr(p, '{'), *c = o ? strchr(o, '}') : NULL;
                assert_non_null(c);
                snprintf(g[n].dealt[k], sizeof g[n].dealt[k], "%.*s", (int)(c - o - 1), o + 1);
                p = c + 1;
            }
        }
    }
    return n + 1;
}

/* A card token of the kifu ("c3", "dt", "jo") as the view shows it ("3♣", "10♦", "JK"). */
static void pretty_card(char suit, char rank, char *out, size_t n)
{
    static const char *const SUIT[4] = {"\u2663", "\u2666", "\u2665", "\u2660"};
    const char *s = strchr("cdhs", suit) ? SUIT[strchr("cdhs", suit) - "cdhs"] : "?";
    char r[4] = {rank, 0, 0, 0};
    if (rank == 't')
        snprintf(r, sizeof r, "10");
    else
        r[0] = (char)toupper((unsigned char)rank);
    snprintf(out, n, "%s%s", r, s);
}

/* A move as the view shows it: "p" -> "pass", "jk" -> "JK", "d-567" -> "5♦ 6♦ 7♦",
 * "h-678(7)" -> "6♥ JK(7♥) 8♥", "ch-a(c)" -> "JK(A♣) A♥". */
static void pretty_move(const char *m, char *out, size_t n)
{
    if (!strcmp(m, "p")) {
        snprintf(out, n, "pass");
        return;
    }
    if (!strcmp(m, "jk")) {
        snprintf(out, n, "JK");
        return;
    }
    const char *dash = strchr(m, '-'), *par = strchr(m, '(');
    assert_non_null(dash);
    char suits[8], ranks[16], jk = 0;
    snprintf(suits, sizeof suits, "%.*s", (int)(dash - m), m);
    snprintf(ranks, sizeof ranks, "%.*s", (int)((par ? par : m + strlen(m)) - dash - 1), dash + 1);
    if (par)
        jk = par[1];
    size_t k = 0;
    out[0] = 0;
    if (strlen(ranks) == 1) { /* a single or a group: cells in suit order */
        for (const char *s = "cdhs"; *s; s++) {
            if (!strchr(suits, *s))
                continue;
            char c[16];
            pretty_card(*s, ranks[0], c, sizeof c);
            k += (size_t)snprintf(out + k, n - k, "%s%s%s%s", k ? " " : "", jk == *s ? "JK(" : "", c, jk == *s ? ")" : "");
        }
        if (strchr(suits, 'x'))
            k += (size_t)snprintf(out + k, n - k, " JK");
    } else { /* a sequence: cells in rank order */
        for (const char *r = ranks; *r; r++) {
            char c[16];
            if (*r == 'u' || *r == 'o') /* the joker's slots below the 3 and above the 2 keep the kifu's rank */
                snprintf(c, sizeof c, "%c", *r);
            else
                pretty_card(suits[0], *r, c, sizeof c);
            k += (size_t)snprintf(out + k, n - k, "%s%s%s%s", k ? " " : "", jk == *r ? "JK(" : "", c, jk == *r ? ")" : "");
        }
    }
}

static const char *const CLASS[5] = {"daifugo", "fugo", "heimin", "hinmin", "daihinmin"};

/* ---- the terminal view against the kifu ---- */

static int is_int(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

/* Display columns of a line (code points). */
static int columns(const char *s, size_t len)
{
    int w = 0;
    for (size_t i = 0; i < len; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

static void check_text(const char *out, const KGame *kg, int ng)
{
    /* every line fits 80 columns; no colour when it was not asked for */
    for (const char *l = out; *l;) {
        size_t len = strcspn(l, "\n");
        if (columns(l, len) > 80)
            fail_msg("a line of %d columns: %.*s", columns(l, len), (int)len, l);
        l += len + (l[len] == '\n');
    }
    assert_null(strchr(out, '\033'));
    assert_int_equal(count_of(out, "══ game "), ng);
    const char *g0 = out;
    for (int g = 0; g < ng; g++) {
        const char *start = strstr(g0, "══ game ");
        assert_non_null(start);
        const char *end = strstr(start + 4, "══ game ");
        if (!end)
            end = start + strlen(start);
        assert_int_equal(atoi(start + strlen("══ game ")), kg[g].number);
        int ply = 0, deal = 0, inresult = 0, results = 0, indeal = 0;
        for (const char *l = start; l < end;) {
            size_t len = strcspn(l, "\n");
            char line[4096];
            snprintf(line, sizeof line, "%.*s", (int)len, l);
            l += len + 1;
            if (!strncmp(line, "deal", 4)) {
                indeal = 1;
                continue;
            }
            if (!*line)
                indeal = 0;
            if (!strcmp(line, "result")) {
                inresult = 1;
                continue;
            }
            char *tok[64], *save = NULL;
            int nt = 0;
            for (char *t = strtok_r(line, " ", &save); t && nt < 64; t = strtok_r(NULL, " ", &save))
                tok[nt++] = t;
            if (nt < 3)
                continue;
            if (indeal && tok[0][0] == 'p' && isdigit((unsigned char)tok[0][1])) { /* a dealt hand */
                int p = tok[0][1] - '0', first = 2;
                if (nt > 2 && strchr("dfhd", tok[2][0]) && isalpha((unsigned char)tok[2][1]))
                    first = 3; /* the class before */
                char want[512] = "", *s2 = NULL, dealt[200];
                snprintf(dealt, sizeof dealt, "%s", kg[g].dealt[p]);
                size_t k = 0;
                for (char *c = strtok_r(dealt, " ", &s2); c; c = strtok_r(NULL, " ", &s2)) {
                    char pc[16];
                    if (!strcmp(c, "jo"))
                        snprintf(pc, sizeof pc, "JK");
                    else
                        pretty_card(c[0], c[1], pc, sizeof pc);
                    k += (size_t)snprintf(want + k, sizeof want - k, "%s%s", k ? " " : "", pc);
                }
                char got[512] = "";
                k = 0;
                for (int i = first; i < nt && tok[i][0] != '('; i++)
                    k += (size_t)snprintf(got + k, sizeof got - k, "%s%s", k ? " " : "", tok[i]);
                if (strcmp(got, want)) /* dealt hands are sorted as the kifu writes them */
                    fail_msg("game %d p%d dealt: '%s', want '%s'", kg[g].number, p, got, want);
                deal++;
            } else if (is_int(tok[0]) && tok[1][0] == 'p' && isdigit((unsigned char)tok[1][1]) && !tok[1][2]) {
                /* a play: ply, pN, name, the move's tokens, cards left, notes */
                assert_int_equal(atoi(tok[0]), ply);
                int k = 3;
                char got[128] = "";
                size_t gl = 0;
                while (k < nt && !is_int(tok[k]))
                    gl += (size_t)snprintf(got + gl, sizeof got - gl, "%s%s", gl ? " " : "", tok[k++]);
                char want[128];
                assert_true(ply < kg[g].nplays);
                pretty_move(kg[g].plays[ply], want, sizeof want);
                if (strcmp(got, want))
                    fail_msg("game %d ply %d: the view shows '%s', the record '%s' (%s)", kg[g].number, ply, got,
                             kg[g].plays[ply], want);
                ply++;
            } else if (inresult && strlen(tok[0]) == 2 && tok[0][1] == '.' && tok[1][0] == 'p') {
                int place = tok[0][0] - '1', p = tok[1][1] - '0';
                assert_int_equal(kg[g].result[p], place);
                assert_string_equal(tok[3], CLASS[place]);
                assert_int_equal(atoi(tok[4]), 5 - place);
                results++;
            }
        }
        assert_int_equal(ply, kg[g].nplays); /* every play once */
        assert_int_equal(deal, 5);
        assert_int_equal(results, 5);
        g0 = end;
    }
}

/* ---- the HTML page against the kifu ---- */

static void check_html(const char *page, const KGame *kg, int ng)
{
    assert_null(strstr(page, "<script"));
    assert_null(strstr(page, "src="));
    assert_null(strstr(page, "<link"));
    assert_null(strstr(page, "url("));
    assert_int_equal(count_of(page, "<section class=\"game\""), ng);
    const char *sec = page;
    for (int g = 0; g < ng; g++) {
        sec = strstr(sec, "<section class=\"game\"");
        const char *end = strstr(sec, "</section>");
        assert_non_null(end);
        /* the dealt hands: 53 cards drawn, and as many again after an exchange */
        const char *h3 = strstr(sec, "<h3>");
        int cards = 0;
        for (const char *c = sec; (c = strstr(c, "<span class=\"cd")) && c < h3; c++)
            cards++;
        assert_true(cards == 53 || cards == 106);
        int ply = 0;
        for (const char *m = sec; (m = strstr(m, "<span class=\"mv\">")) && m < end; m++) {
            const char *w = strstr(m, "<span class=\"who\">") + strlen("<span class=\"who\">");
            assert_int_equal(atoi(w), ply);
            const char *next = strstr(m + 1, "<span class=\"mv\">"), *td = strstr(m, "</td>");
            const char *stop = next && next < td ? next : td;
            char got[128] = "";
            size_t gl = 0;
            if (strstr(m, "<span class=\"ps\">pass</span>") && strstr(m, "<span class=\"ps\">pass</span>") < stop)
                gl += (size_t)snprintf(got, sizeof got, "pass");
            for (const char *c = m; (c = strstr(c, "<span class=\"cd")) && c < stop; c++) {
                const char *t = strchr(c, '>') + 1, *small = strstr(t, "<small>"), *close = strstr(t, "</span>");
                if (small && small < close)
                    gl += (size_t)snprintf(got + gl, sizeof got - gl, "%s%.*s(%.*s)", gl ? " " : "",
                                           (int)(small - t), t, (int)(strstr(small, "</small>") - small - 7), small + 7);
                else
                    gl += (size_t)snprintf(got + gl, sizeof got - gl, "%s%.*s", gl ? " " : "", (int)(close - t), t);
            }
            char want[128];
            assert_true(ply < kg[g].nplays);
            pretty_move(kg[g].plays[ply], want, sizeof want);
            if (strcmp(got, want))
                fail_msg("HTML game %d ply %d: '%s', want '%s'", kg[g].number, ply, got, want);
            ply++;
        }
        assert_int_equal(ply, kg[g].nplays);
        /* the result table: each player's class and points */
        const char *res = strstr(sec, "<h3>Result</h3>");
        assert_non_null(res);
        for (int p = 0; p < 5; p++) {
            char key[64];
            snprintf(key, sizeof key, "<tr><td class=\"l\">p%d ", p);
            const char *row = strstr(res, key);
            assert_non_null(row);
            char want[96];
            snprintf(want, sizeof want, "<td class=\"l\">%s</td><td>%d</td>", CLASS[kg[g].result[p]], 5 - kg[g].result[p]);
            const char *rowend = strstr(row, "</tr>");
            const char *hit = strstr(row, want);
            if (!hit || hit > rowend)
                fail_msg("HTML game %d p%d: want %s", kg[g].number, p, want);
        }
        sec = end;
    }
}

/* ---- JSON against the kifu ---- */

static void check_json(const char *js, const KGame *kg, int ng)
{
    const char *g0 = js;
    for (int g = 0; g < ng; g++) {
        g0 = strstr(g0, "\n {\"index\": ");
        assert_non_null(g0);
        const char *end = strstr(g0 + 1, "\n {\"index\": ");
        if (!end)
            end = g0 + strlen(g0);
        const char *num = strstr(g0, "\"number\": ");
        assert_int_equal(atoi(num + 10), kg[g].number);
        int ply = 0;
        for (const char *p = g0; (p = strstr(p, "{\"ply\": ")) && p < end; p++) {
            int a1, a2, used = 0; /* a play is {"ply": N, "player": P, "move": ...; an analysis has "gift" there */
            if (sscanf(p, "{\"ply\": %d, \"player\": %d, %n", &a1, &a2, &used) != 2 || !used ||
                strncmp(p + used, "\"move\": ", 8))
                continue;
            assert_int_equal(atoi(p + 8), ply);
            const char *mv = strstr(p, "\"move\": \"") + 9;
            char got[32];
            snprintf(got, sizeof got, "%.*s", (int)(strchr(mv, '"') - mv), mv);
            Move a, b;
            assert_int_equal(move_parse(got, strlen(got), &a), 0);
            assert_int_equal(move_parse(kg[g].plays[ply], strlen(kg[g].plays[ply]), &b), 0);
            if (!move_eq(a, b))
                fail_msg("JSON game %d ply %d: %s, want %s", kg[g].number, ply, got, kg[g].plays[ply]);
            ply++;
        }
        assert_int_equal(ply, kg[g].nplays);
        for (int p = 0; p < 5; p++) {
            char want[96];
            snprintf(want, sizeof want, "{\"player\": %d, \"class\": %d, \"points\": %d}", p, kg[g].result[p],
                     5 - kg[g].result[p]);
            assert_non_null(strstr(g0, want));
        }
        g0 = end;
    }
}

static void views_of(const char *dir, const char *kifu, const char *tag)
{
    size_t len;
    char *text = read_all(kifu, &len);
    assert_non_null(text);
    static KGame kg[MAXG];
    int ng = read_kifu(text, kg, MAXG);
    assert_true(ng > 0 && ng < MAXG);
    free(text);
    char out[512], err[512];
    snprintf(out, sizeof out, "%s/%s.txt", dir, tag);
    snprintf(err, sizeof err, "%s/%s.err", dir, tag);
    assert_int_equal(run_to(out, err, "%s view %s", dhm_bin(), kifu), 0);
    char *o = read_all(out, NULL);
    check_text(o, kg, ng);
    free(o);
    snprintf(out, sizeof out, "%s/%s.html", dir, tag);
    assert_int_equal(run_to(NULL, err, "%s view %s -o %s", dhm_bin(), kifu, out), 0);
    o = read_all(out, NULL);
    check_html(o, kg, ng);
    free(o);
    snprintf(out, sizeof out, "%s/%s.json", dir, tag);
    assert_int_equal(run_to(out, err, "%s view %s --json", dhm_bin(), kifu), 0);
    o = read_all(out, NULL);
    check_json(o, kg, ng);
    free(o);
    /* one game by number and by position; colour when asked */
    snprintf(out, sizeof out, "%s/%s.one", dir, tag);
    assert_int_equal(run_to(out, err, "%s view --game %d %s --color always", dhm_bin(), kg[ng - 1].number, kifu), 0);
    o = read_all(out, NULL);
    assert_int_equal(count_of(o, "══ game "), 1);
    assert_non_null(strstr(o, "\033[31m")); /* red suits */
    free(o);
    assert_int_equal(run_to(out, err, "%s view --indexes %d-%d %s", dhm_bin(), ng - 2, ng - 1, kifu), 0);
    o = read_all(out, NULL);
    check_text(o, kg + ng - 2, 2);
    free(o);
}

/* Long sequences are drawn whole (a run may take up to thirteen ranks and the joker), and a joker
 * at either end of one is written with the kifu's rank for that slot. */
static void test_long_sequences(void **state)
{
    (void)state;
    static const struct {
        const char *kifu, *text;
    } CASES[] = {{"s-6789tj", "6\u2660 7\u2660 8\u2660 9\u2660 10\u2660 J\u2660"},
                 {"d-3456789tjqka2", "3\u2666 4\u2666 5\u2666 6\u2666 7\u2666 8\u2666 9\u2666 10\u2666 J\u2666 Q\u2666 K\u2666 A\u2666 2\u2666"},
                 {"h-456789(7)", "4\u2665 5\u2665 6\u2665 JK(7\u2665) 8\u2665 9\u2665"},
                 /* the joker at the ends: the kifu's ranks u and o, as the kifu writes them */
                 {"s-u34(u)", "JK(u) 3\u2660 4\u2660"},
                 {"d-a2o(o)", "A\u2666 2\u2666 JK(o)"}};
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Move m;
        assert_int_equal(move_parse(CASES[i].kifu, strlen(CASES[i].kifu), &m), 0);
        CardTok t[VIEWFMT_MOVE_MAX];
        assert_int_equal(viewfmt_move(m, t), m.n);
        char text[256];
        viewfmt_move_text(m, text, sizeof text);
        assert_string_equal(text, CASES[i].text);
    }
}

static void test_views_against_the_records(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    char kifu[256];
    snprintf(kifu, sizeof kifu, "%s/own.kifu", dir);
    char out[256];
    snprintf(out, sizeof out, "%s/play.out", dir);
    assert_int_equal(run_to(out, "/dev/null", "%s play --players random,simple,policy,random,simple --games 40 --seed 6 "
                                              "--record %s --quiet",
                            dhm_bin(), kifu),
                     0);
    views_of(dir, kifu, "own");
    const char *blaux = shared_file("data/blaux5.kifu");
    if (blaux) {
        char b[4096];
        snprintf(b, sizeof b, "%s", blaux);
        views_of(dir, b, "blaux5");
    } else {
        fprintf(stderr, "blaux5 views: skipped (../shared/data/blaux5.kifu is absent)\n");
    }
    /* on a terminal, colour unless NO_COLOR (script(1) gives the command a terminal) */
    if (run_cmd(NULL, 0, "command -v script >/dev/null 2>&1") == 0) {
        static char tty[1 << 17];
        run_cmd(tty, sizeof tty, "script -qec '%s view --game 0 %s' /dev/null", dhm_bin(), kifu);
        assert_non_null(strstr(tty, "\033["));
        run_cmd(tty, sizeof tty, "NO_COLOR=1 script -qec 'NO_COLOR=1 %s view --game 0 %s' /dev/null", dhm_bin(), kifu);
        assert_non_null(strstr(tty, "══ game 0"));
        assert_null(strstr(tty, "\033[3"));
    }
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* ---- in a browser ---- */

static void base64(const unsigned char *in, size_t n, FILE *f)
{
    static const char T[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        fputc(T[v >> 18 & 63], f);
        fputc(T[v >> 12 & 63], f);
        fputc(i + 1 < n ? T[v >> 6 & 63] : '=', f);
        fputc(i + 2 < n ? T[v & 63] : '=', f);
    }
}

/* The screenshot's pixels, read by a page in the browser: how many are not white and how many
 * colours (4 bits a channel) there are. */
static void pixels(const char *dir, const char *png, long *inked, long *total, int *colours)
{
    size_t n;
    char *img = read_all(png, &n);
    assert_non_null(img);
    char page[256];
    snprintf(page, sizeof page, "%s/pixels.html", dir);
    FILE *f = fopen(page, "w");
    fprintf(f, "<!DOCTYPE html><html><body><img id=\"i\" src=\"data:image/png;base64,");
    base64((const unsigned char *)img, n, f);
    fprintf(f, "\"><pre id=\"o\"></pre><script>window.addEventListener('load',function(){var i=document.getElementById('i');"
               "var c=document.createElement('canvas');c.width=i.naturalWidth;c.height=i.naturalHeight;"
               "var x=c.getContext('2d');x.drawImage(i,0,0);var d=x.getImageData(0,0,c.width,c.height).data;"
               "var ink=0,seen={},k=0;for(var p=0;p<d.length;p+=4){if(d[p]<240||d[p+1]<240||d[p+2]<240)ink++;"
               "var key=(d[p]>>4)*256+(d[p+1]>>4)*16+(d[p+2]>>4);if(!seen[key]){seen[key]=1;k++;}}"
               "document.getElementById('o').textContent='PIXELS '+ink+' '+(c.width*c.height)+' '+k;});</script>"
               "</body></html>\n");
    fclose(f);
    free(img);
    static char dom[1 << 21];
    assert_int_equal(run_cmd(dom, sizeof dom,
                             "cd %s && timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom file://%s "
                             "2>/dev/null",
                             dir, page),
                     0);
    const char *p = strstr(dom, "PIXELS ");
    assert_non_null(p);
    assert_int_equal(sscanf(p + 7, "%ld %ld %d", inked, total, colours), 3);
}

static void test_page_in_a_browser(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    char kifu[256], html[256], png[256], out[1 << 15];
    snprintf(kifu, sizeof kifu, "%s/own.kifu", dir);
    snprintf(html, sizeof html, "%s/game.html", dir);
    snprintf(png, sizeof png, "%s/game.png", dir);
    assert_int_equal(run_to("/dev/null", "/dev/null", "%s play --players random,simple,policy,random,simple --games 3 "
                                                      "--seed 2 --record %s --quiet",
                            dhm_bin(), kifu),
                     0);
    assert_int_equal(run_to("/dev/null", "/dev/null", "%s view --game 1 %s --analyze --worlds 4 --alternatives --quiet -o %s",
                            dhm_bin(), kifu, html),
                     0);
    int rc = run_cmd(out, sizeof out,
                     "cd %s && timeout 120 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 "
                     "--hide-scrollbars --window-size=1100,1600 --screenshot=%s file://%s 2>&1",
                     dir, png, html);
    if (rc != 0)
        fail_msg("chromium failed (%d): %.2000s", rc, out);
    assert_null(strstr(out, "CONSOLE"));
    assert_null(strstr(out, "net::ERR"));
    long inked, total;
    int colours;
    pixels(dir, png, &inked, &total, &colours);
    if (!(total >= 1100L * 1600 && inked > total / 50 && colours >= 8))
        fail_msg("the screenshot looks blank: %ld of %ld pixels inked, %d colours", inked, total, colours);
    /* the check itself sees a blank page */
    snprintf(html, sizeof html, "%s/blank.html", dir);
    FILE *f = fopen(html, "w");
    fprintf(f, "<!DOCTYPE html><html><body></body></html>\n");
    fclose(f);
    assert_int_equal(run_cmd(out, sizeof out,
                             "cd %s && timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "
                             "--window-size=1100,1600 --screenshot=%s file://%s 2>&1",
                             dir, png, html),
                     0);
    pixels(dir, png, &inked, &total, &colours);
    assert_true(inked < total / 1000);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* ---- the analysis ---- */

/* The value after key in s (NAN when absent before end). */
static double num_after(const char *s, const char *end, const char *key)
{
    const char *p = strstr(s, key);
    return p && (!end || p < end) ? atof(p + strlen(key)) : NAN;
}

typedef struct Dec {
    long index;
    int ply, player;
    double loss, luck;
    char mark[16];
    int sure;
} Dec;

/* Every "analysis" object of a view's JSON, with the index of its game. */
static int json_decisions(const char *js, Dec *d, int max)
{
    int n = 0;
    long index = -1;
    for (const char *p = js; *p && n < max; p++) {
        if (!strncmp(p, "\n {\"index\": ", 12))
            index = atol(p + 12);
        if (strncmp(p, "\"analysis\": {\"ply\": ", 20))
            continue;
        Dec *x = &d[n++];
        const char *end = strstr(p, "\"top\"");
        x->index = index;
        x->ply = atoi(p + 20);
        x->player = (int)num_after(p, end, "\"player\": ");
        x->loss = num_after(p, end, "\"loss\": ");
        x->luck = num_after(p, end, "\"luck\": ");
        const char *m = strstr(p, "\"mark\": \"") + 9;
        snprintf(x->mark, sizeof x->mark, "%.*s", (int)(strchr(m, '"') - m), m);
        x->sure = !strncmp(strstr(p, "\"certain_win\": ") + 15, "true", 4);
    }
    return n;
}

static void test_analysis_agrees_with_errorrate(void **state)
{
    (void)state;
    char dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    char kifu[256], a[256], b[256], e[256];
    snprintf(kifu, sizeof kifu, "%s/m.kifu", dir);
    snprintf(a, sizeof a, "%s/view1.json", dir);
    snprintf(b, sizeof b, "%s/view2.json", dir);
    snprintf(e, sizeof e, "%s/err.json", dir);
    assert_int_equal(run_to("/dev/null", "/dev/null", "%s play --players random,simple,policy,random,simple --games 5 "
                                                      "--seed 8 --record %s --quiet",
                            dhm_bin(), kifu),
                     0);
    assert_int_equal(run_to(e, "/dev/null", "%s errorrate %s --worlds 6 --seed 5 --marks 1000 --json --quiet", dhm_bin(),
                            kifu),
                     0);
    assert_int_equal(run_to(a, "/dev/null", "%s view %s --analyze --worlds 6 --seed 5 --json --quiet --jobs 1", dhm_bin(),
                            kifu),
                     0);
    assert_int_equal(run_to(b, "/dev/null", "%s view %s --analyze --worlds 6 --seed 5 --json --quiet --jobs 2", dhm_bin(),
                            kifu),
                     0);
    char *va = read_all(a, NULL), *vb = read_all(b, NULL), *er = read_all(e, NULL);
    assert_string_equal(va, vb); /* whatever the threads */
    static Dec d[4000];
    int n = json_decisions(va, d, 4000);
    assert_true(n > 200);
    const char *names[5] = {"random", "simple", "policy", "random", "simple"};
    /* every loss dhm errorrate lists is the view's loss of the same decision */
    int marks = 0, positive = 0;
    for (int i = 0; i < n; i++)
        positive += d[i].loss > 0;
    for (const char *m = strstr(er, "\"marks\": ["); (m = strstr(m, "{\"game\": ")); m++, marks++) {
        long game = atol(m + 9);
        int ply = (int)num_after(m, NULL, "\"ply\": ");
        const char *pn = strstr(m, "\"player\": \"") + 11;
        double loss = num_after(m, NULL, "\"loss\": ");
        int found = 0;
        for (int i = 0; i < n && !found; i++)
            if (d[i].index == game && d[i].ply == ply && !strncmp(pn, names[d[i].player], strlen(names[d[i].player])) &&
                pn[strlen(names[d[i].player])] == '"' && fabs(d[i].loss - loss) < 6e-5)
                found = 1;
        if (!found)
            fail_msg("errorrate's mark game %ld ply %d loss %.4f is not in the view", game, ply, loss);
    }
    assert_int_equal(marks, positive); /* and nothing more */
    /* per player name: the decisions judged and skipped, and the error rate */
    for (int k = 0; k < 3; k++) {
        const char *nm = k == 0 ? "random" : k == 1 ? "simple" : "policy";
        char key[64];
        snprintf(key, sizeof key, "{\"player\": \"%s\"", nm);
        const char *row = strstr(er, key);
        assert_non_null(row);
        long judged = (long)num_after(row, NULL, "\"judged\": "), skipped = (long)num_after(row, NULL, "\"skipped\": ");
        double rate = num_after(row, NULL, "\"error_rate\": ");
        long vj = 0, vs = 0;
        double vl = 0;
        const char *sum = strstr(va, "\"summary\": {\"games\"");
        assert_non_null(sum);
        for (int p = 0; p < 5; p++) {
            if (strcmp(names[p], nm))
                continue;
            char pk[32];
            snprintf(pk, sizeof pk, "{\"player\": %d,", p);
            const char *r = strstr(sum, pk);
            vj += (long)num_after(r, NULL, "\"judged\": ");
            vs += (long)num_after(r, NULL, "\"skipped\": ");
            vl += num_after(r, NULL, "\"loss\": ");
        }
        assert_int_equal(vj, judged);
        assert_int_equal(vs, skipped);
        NEAR(vl / (double)vj, rate, 1e-5);
    }
    /* the marks are the documented thresholds of the losses */
    for (int i = 0; i < n; i++) {
        const char *want = d[i].sure && d[i].loss >= REVIEW_DOUBTFUL ? "very bad"
                           : d[i].loss >= REVIEW_VERY_BAD          ? "very bad"
                           : d[i].loss >= REVIEW_BAD               ? "bad"
                           : d[i].loss >= REVIEW_DOUBTFUL          ? "doubtful"
                                                                   : "";
        if (fabs(d[i].loss - REVIEW_DOUBTFUL) > 1e-5 && fabs(d[i].loss - REVIEW_BAD) > 1e-5 &&
            fabs(d[i].loss - REVIEW_VERY_BAD) > 1e-5) /* (not on a threshold: the JSON rounds) */
            assert_string_equal(d[i].mark, want);
    }
    /* luck: per game and player, result - average = luck - loss */
    long checked = 0;
    for (const char *g = strstr(va, "\"summary\": ["); g; g = strstr(g + 1, "\"summary\": [")) {
        const char *end = strstr(g, "}]");
        for (const char *r = g; (r = strstr(r, "{\"player\": ")) && r < end; r++) {
            double luck = num_after(r, end, "\"luck\": "), loss = num_after(r, end, "\"loss\": ");
            double res = num_after(r, end, "\"result\": "), avg = num_after(r, end, "\"average\": ");
            NEAR(res - avg, luck - loss, 2e-5);
            checked++;
        }
    }
    assert_int_equal(checked, 25);
    /* and a decision's luck is the change since the player's previous one: a player's pieces plus
     * the last add up to its luck (checked through the identity above); here, that the pieces are
     * not all zero */
    int moved = 0;
    for (int i = 0; i < n; i++)
        moved += d[i].luck != 0;
    assert_true(moved > n / 4);
    free(va);
    free(vb);
    free(er);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* A player that plays simple, but once a game passes up going out at once while nobody is out
 * yet (a certain first place). */
typedef struct Passer {
    Player base;
    Player *inner;
    int last_game;
} Passer;

static Move passer_play(Player *self, const InfoSet *v)
{
    Passer *p = (Passer *)self;
    if (!move_is_pass(v->table) && v->nout == 0 && v->game != p->last_game) {
        Move mv[MOVEGEN_MAX];
        int n = movegen(v->hand, v->table, v->rev, v->lock, mv);
        for (int i = 0; i < n; i++)
            if (!move_is_pass(mv[i]) && move_cards(mv[i]) == v->hand) {
                p->last_game = v->game;
                return move_pass();
            }
    }
    return p->inner->play(p->inner, v);
}

static Cards passer_exchange(Player *self, const InfoSet *v, int n)
{
    Passer *p = (Passer *)self;
    return p->inner->exchange(p->inner, v, n);
}

static void test_certain_win_passed_up(void **state)
{
    (void)state;
    char err[256], dir[64];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    Passer ps;
    memset(&ps, 0, sizeof ps);
    ps.last_game = -1;
    assert_int_equal(player_create("simple", 1, &ps.inner, err, sizeof err), 0);
    ps.base.kind = "passer";
    ps.base.play = passer_play;
    ps.base.exchange = passer_exchange;
    Player *pl[5] = {&ps.base};
    for (int p = 1; p < 5; p++)
        assert_int_equal(player_create("simple", (uint64_t)p, &pl[p], err, sizeof err), 0);
    MatchConfig cfg;
    match_config_default(&cfg);
    cfg.games = 300;
    cfg.seed = 5;
    GameRecord *scratch = malloc(sizeof *scratch);
    MatchResult res;
    nrecs = 0;
    assert_int_equal(match_run(pl, &cfg, NULL, keep_rec, NULL, scratch, &res), 0);
    free(scratch);
    /* the games where the pass happened and someone else then went out first: the certainty was
     * really lost */
    char kifu[256], out[256];
    snprintf(kifu, sizeof kifu, "%s/passer.kifu", dir);
    snprintf(out, sizeof out, "%s/passer.json", dir);
    FILE *f = fopen(kifu, "w");
    const char *names[5] = {"passer", "s1", "s2", "s3", "s4"};
    kifu_write_header(f, names);
    int games = 0, passes[300];
    for (int g = 0; g < nrecs; g++) {
        const GameRecord *rec = &recs[g];
        GameState s;
        state_init(&s, rec->original, rec->seat, rec->first);
        int found = -1;
        for (int i = 0; i < rec->nplays && found < 0; i++) {
            if (s.turn == 0 && move_is_pass(rec->plays[i].move) && !move_is_pass(s.table) && s.nout == 0) {
                Move mv[MOVEGEN_MAX];
                int n = movegen(s.hand[0], s.table, s.rev, s.lock, mv);
                for (int k = 0; k < n; k++)
                    if (!move_is_pass(mv[k]) && move_cards(mv[k]) == s.hand[0])
                        found = i;
            }
            state_apply(&s, rec->plays[i].move);
        }
        if (found >= 0 && rec->result[0] > 0) {
            GameRecord r2 = *rec;
            r2.number = games;
            kifu_write_game(f, &r2);
            passes[games++] = found;
        }
    }
    fclose(f);
    assert_true(games >= 3);
    assert_int_equal(run_to(out, "/dev/null", "%s view %s --analyze --players passer --worlds 30 --json --quiet", dhm_bin(),
                            kifu),
                     0);
    char *js = read_all(out, NULL);
    static Dec d[4000];
    int n = json_decisions(js, d, 4000), seen = 0;
    for (int i = 0; i < n; i++) {
        assert_int_equal(d[i].player, 0);
        if (d[i].ply != passes[d[i].index])
            continue;
        if (!d[i].sure || strcmp(d[i].mark, "very bad"))
            fail_msg("game %ld ply %d: a certain win passed up, marked '%s' (loss %.4f, certain %d)", d[i].index, d[i].ply,
                     d[i].mark, d[i].loss, d[i].sure);
        seen++;
    }
    assert_int_equal(seen, games);
    /* the text says so too */
    char txt[256];
    snprintf(txt, sizeof txt, "%s/passer.txt", dir);
    assert_int_equal(run_to(txt, "/dev/null", "%s view --game 0 %s --analyze --players passer --worlds 30 --quiet", dhm_bin(),
                            kifu),
                     0);
    char *t = read_all(txt, NULL);
    assert_non_null(strstr(t, "?? loss"));
    assert_non_null(strstr(t, "a certain win passed up"));
    free(t);
    free(js);
    player_destroy(ps.inner);
    for (int p = 1; p < 5; p++)
        player_destroy(pl[p]);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* ---- stored analyses ---- */

static void test_review_bytes(void **state)
{
    (void)state;
    static const char *const specs[5] = {"random", "simple", "random", "simple", "random"};
    play_records(specs, 4, 3);
    ReviewConfig rc;
    review_config_default(&rc);
    rc.worlds = 4;
    rc.evaluator = "mc:sims=50:playout=simple";
    ReviewGame g[4];
    GameReview r[4];
    char err[256];
    for (int i = 0; i < 4; i++) {
        g[i].rec = &recs[i];
        g[i].index = i;
        g[i].mask = 31;
    }
    assert_int_equal(review_games(&rc, g, 4, r, err, sizeof err), 0);
    for (int i = 0; i < 4; i++) {
        size_t len;
        uint8_t *b = review_pack(&r[i], &len);
        assert_non_null(b);
        GameReview back;
        assert_int_equal(review_unpack(b, len, &back), 0);
        assert_int_equal(back.n, r[i].n);
        assert_int_equal(back.index, r[i].index);
        assert_memory_equal(back.d, r[i].d, (size_t)r[i].n * sizeof *back.d);
        assert_memory_equal(back.loss, r[i].loss, sizeof back.loss);
        review_free(&back);
        /* every shorter input, and single flipped bytes, are refused or read without harm */
        for (size_t k = 0; k < len; k++) {
            if (review_unpack(b, k, &back) == 0)
                fail_msg("a %zu-byte prefix of %zu read as whole", k, len);
        }
        Rng rng = rng_seed(7);
        int refused = 0;
        for (int t = 0; t < 300; t++) {
            size_t at = rng_below(&rng, (uint32_t)len);
            uint8_t old = b[at];
            b[at] ^= (uint8_t)(1 + rng_below(&rng, 255));
            if (review_unpack(b, len, &back) == 0)
                review_free(&back);
            else
                refused++;
            b[at] = old;
        }
        assert_true(refused > 100);
        free(b);
        review_free(&r[i]);
    }
}

static void test_store_and_report(void **state)
{
    (void)state;
    char dir[64], out[1 << 16];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    const char *D = dhm_bin();
    char path[256];
    snprintf(path, sizeof path, "%s/pool", dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "alpha simple\nbeta random\ngamma simple\ndelta policy\neps random\n");
    fclose(f);
    assert_int_equal(run_cmd(out, sizeof out, "%s tournament --pool %s/pool --sets 3 --games 4 --records --db %s/t.sqlite "
                                              "--quiet 2>&1",
                             D, dir, dir),
                     0);
    /* a stored game, as text; the same as its set exported to kifu */
    assert_int_equal(run_cmd(out, sizeof out, "%s view --db %s/t.sqlite --set 1 --game 2 2>&1", D, dir), 0);
    assert_non_null(strstr(out, "══ game 2 · set 1 of"));
    assert_non_null(strstr(out, "index 6")); /* as dhm errorrate counts: set 0's 4 games, then games 0 and 1 */
    /* analyse two games and save; the report shows them */
    assert_int_equal(run_cmd(out, sizeof out, "%s view --db %s/t.sqlite --set 1 --games 0-1 --analyze --worlds 4 "
                                              "--evaluator mc:sims=50:playout=simple --save --quiet 2>&1 >/dev/null",
                             D, dir),
                     0);
    assert_non_null(strstr(out, "saved the analyses of 2 games"));
    assert_int_equal(run_cmd(out, sizeof out, "%s report --db %s/t.sqlite -o %s/r.html 2>&1", D, dir, dir), 0);
    char html[256];
    snprintf(html, sizeof html, "%s/r.html", dir);
    char *page = read_all(html, NULL);
    assert_non_null(strstr(page, "<h2 id=\"games\">"));
    assert_non_null(strstr(page, "href=\"#games\""));
    assert_true(strstr(page, "<section class=\"game\" id=\"game-1-0\">") || strstr(page, "<section class=\"game\" id=\"game-1-1\">"));
    assert_true(count_of(page, "href=\"#game-1-") >= 3); /* each player's costliest decisions link to their games */
    assert_null(strstr(page, "<script"));
    free(page);
    /* a damaged stored analysis is a one-line error */
    assert_int_equal(run_cmd(out, sizeof out, "cp %s/t.sqlite %s/d.sqlite", dir, dir), 0);
    {
        char db[256];
        snprintf(db, sizeof db, "%s/d.sqlite", dir);
        sqlite3 *h;
        assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
        assert_int_equal(sqlite3_exec(h, "UPDATE game_reviews SET data = substr(data, 1, 40)", NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(h);
    }
    assert_int_equal(run_cmd(out, sizeof out, "%s report --db %s/d.sqlite -o %s/d.html 2>&1", D, dir, dir), 1);
    assert_non_null(strstr(out, "damaged database"));
    assert_int_equal(count_of(out, "\n"), 1);
    /* a store without records; a missing set or game */
    assert_int_equal(run_cmd(out, sizeof out, "%s tournament --pool %s/pool --sets 1 --games 2 --db %s/n.sqlite --quiet 2>&1",
                             D, dir, dir),
                     0);
    assert_int_equal(run_cmd(out, sizeof out, "%s view --db %s/n.sqlite --set 0 2>&1", D, dir), 1);
    assert_non_null(strstr(out, "holds no game records"));
    assert_int_equal(count_of(out, "\n"), 1);
    assert_int_equal(run_cmd(out, sizeof out, "%s view --db %s/t.sqlite --set 9 2>&1", D, dir), 1);
    assert_non_null(strstr(out, "has no set 9 (its sets are 0-2)"));
    assert_int_equal(run_cmd(out, sizeof out, "%s view --db %s/t.sqlite --set 0 --game 7 2>&1", D, dir), 1);
    assert_non_null(strstr(out, "has no game numbered 7 (it holds games 0-3)"));
    assert_int_equal(run_cmd(out, sizeof out, "%s view --db %s/t.sqlite --set 0 --game 1 --analyze --save --worlds 2 "
                                              "--evaluator mc:sims=20 --players nobody 2>&1",
                             D, dir),
                     2);
    assert_non_null(strstr(out, "no player of these games is named nobody"));
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

static void test_bad_input(void **state)
{
    (void)state;
    char dir[64], out[1 << 15];
    assert_non_null(test_tmpdir(dir, sizeof dir));
    const char *D = dhm_bin();
    assert_int_equal(run_cmd(out, sizeof out, "%s play --players simple,simple,random,random,simple --games 6 --seed 3 "
                                              "--record %s/g.kifu --quiet >/dev/null 2>&1",
                             D, dir),
                     0);
    /* a kifu that breaks the rules: game 4's first play swapped for one its player does not hold */
    char *text = read_all(strcat(strcpy(out, dir), "/g.kifu"), NULL);
    char *g4 = strstr(text, "game 4 \n"), *play = strstr(g4, "play ");
    assert_non_null(play);
    char bad[256];
    snprintf(bad, sizeof bad, "%s/bad.kifu", dir);
    FILE *f = fopen(bad, "w");
    fprintf(f, "%.*s", (int)(play - text + 5), text);
    fprintf(f, "%s", strchr(play + 5, ' ') + 1 - 0); /* the first play dropped: the next player's move comes first */
    fclose(f);
    free(text);
    struct {
        const char *args;
        int status;
        const char *says;
    } cases[] = {
        {"%s/bad.kifu", 1, "game 4"},
        {"--games 0-5 %s/bad.kifu -o %s/p.html", 1, "game 4"},
        {"--game 99 %s/g.kifu", 1, "has no game numbered 99 (its games are numbered 0-5)"},
        {"--index 6 %s/g.kifu", 1, "has no game at position 6"},
        {"%s/none.kifu", 1, "cannot open"},
        {"--games 5-2 %s/g.kifu", 2, "A <= B"},
        {"--game 1 --games 1-2 %s/g.kifu", 2, "exclude each other"},
        {"--color blue %s/g.kifu", 2, "--color"},
        {"--db %s/x.sqlite", 2, "--set"},
        {"--set 1 %s/g.kifu", 2, "go with --db"},
        {"--analyze --evaluator simple %s/g.kifu", 2, "not an mc or search player"},
        {"--save --analyze %s/g.kifu", 2, "--save stores into the --db store"},
        {"--players x %s/g.kifu", 2, "go with --analyze"},
        {"--analyze --marks-at 0.1,0.05,0.2 %s/g.kifu", 2, "increasing"},
        {"--analyze --worlds 0 %s/g.kifu", 2, "--worlds"},
        {"%s/g.kifu %s/g.kifu", 2, "one kifu file at a time"},
        {"--frob %s/g.kifu", 2, "frob"},
        {"--game 1 %s/g.kifu -o %s/no/such/dir.html", 1, "cannot write"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[512];
        snprintf(args, sizeof args, cases[i].args, dir, dir);
        int rc = run_cmd(out, sizeof out, "%s view %s 2>&1 >/dev/null", D, args);
        if (rc != cases[i].status || !strstr(out, cases[i].says) || count_of(out, "\n") != 1)
            fail_msg("dhm view %s: status %d, said: %s", args, rc, out);
    }
    /* never a partial page: the page with a broken game is not written, nor its temporary file */
    assert_int_equal(run_cmd(out, sizeof out, "ls %s", dir), 0);
    assert_null(strstr(out, "p.html"));
    /* --help */
    assert_int_equal(run_cmd(out, sizeof out, "%s view --help", D), 0);
    assert_non_null(strstr(out, "--analyze"));
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    recs = malloc(300 * sizeof *recs);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_long_sequences),
        cmocka_unit_test(test_views_against_the_records),
        cmocka_unit_test(test_page_in_a_browser),
        cmocka_unit_test(test_analysis_agrees_with_errorrate),
        cmocka_unit_test(test_certain_win_passed_up),
        cmocka_unit_test(test_review_bytes),
        cmocka_unit_test(test_store_and_report),
        cmocka_unit_test(test_bad_input),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(recs);
    return rc;
}
