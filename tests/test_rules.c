/* test_rules.c — the rules of spec/uecda.md §3 as data-driven cases (tests/data/rules.txt).
 *
 * Each case sets up a position (hands, seats, first player, optionally a meld already on
 * the table, revolution, lock) and then runs commands in order:
 *   play MOVE          the player to move plays MOVE (it must be legal)
 *   illegal MOVE       MOVE is not legal for the player to move
 *   legal MOVE         MOVE is legal (also melds the generator omits)
 *   moves M1 M2 ...    the generated moves are exactly this set (order-free)
 *   expect KEY VALUE   turn P | table MOVE|empty | rev 0/1 | lock 0/1 | owner P | over 0/1 |
 *                      order P.. | out P.. | passed P.. | hand P CARDS | npass N |
 *                      ev FLAG.. (clear finish over stalemate revolution lock none)
 *   repeat N CMD...    runs a play/illegal command N times
 * Setup commands: hand P CARDS, seat S0..S4, first P, table MOVE OWNER, rev 0/1, lock 0/1,
 * out P.. (players already finished, in order).
 * Adding a case is adding lines to the data file.
 */
#include "testutil.h"

#include "game/game.h"

#define MAX_CASES 512
#define MAX_LINES 96

typedef struct Case {
    char name[160];
    int line0;
    int nlines;
    int lineno[MAX_LINES];
    char text[MAX_LINES][256];
} Case;

static Case *cases;
static int ncases;
static const char *data_path = "tests/data/rules.txt";

static void load_cases(void)
{
    FILE *f = fopen(data_path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", data_path);
        exit(1);
    }
    cases = calloc(MAX_CASES, sizeof *cases);
    char line[512];
    int ln = 0;
    Case *cur = NULL;
    while (fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            continue;
        if (!strncmp(s, "case ", 5)) {
            if (cur || ncases >= MAX_CASES) {
                fprintf(stderr, "%s:%d: case inside case or too many cases\n", data_path, ln);
                exit(1);
            }
            cur = &cases[ncases++];
            snprintf(cur->name, sizeof cur->name, "%s:%d %s", data_path, ln, s + 5);
            cur->line0 = ln;
        } else if (!strcmp(s, "end")) {
            if (!cur) {
                fprintf(stderr, "%s:%d: end without case\n", data_path, ln);
                exit(1);
            }
            cur = NULL;
        } else {
            if (!cur || cur->nlines >= MAX_LINES) {
                fprintf(stderr, "%s:%d: line outside a case or case too long\n", data_path, ln);
                exit(1);
            }
            snprintf(cur->text[cur->nlines], sizeof cur->text[0], "%.255s", s);
            cur->lineno[cur->nlines++] = ln;
        }
    }
    fclose(f);
    if (cur) {
        fprintf(stderr, "%s: last case lacks `end`\n", data_path);
        exit(1);
    }
}

/* --- tiny tokenizer --- */
static int tokens(char *s, char **tok, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t"))
        tok[n++] = t;
    return n;
}

#define CHECK(cond, ...)                                                                                           \
    do {                                                                                                           \
        if (!(cond)) {                                                                                             \
            print_error("%s:%d: ", data_path, ln);                                                                 \
            print_error(__VA_ARGS__);                                                                              \
            print_error("\n");                                                                                     \
            fail();                                                                                                \
        }                                                                                                          \
    } while (0)

static Move parse_move(const char *t, int ln)
{
    Move m;
    CHECK(move_parse(t, strlen(t), &m) == 0, "bad move '%s'", t);
    return m;
}

static unsigned player_set(char **tok, int n, int ln)
{
    unsigned m = 0;
    for (int i = 0; i < n; i++) {
        int p = atoi(tok[i]);
        CHECK(p >= 0 && p < 5 && tok[i][0] >= '0' && tok[i][0] <= '4', "bad player '%s'", tok[i]);
        m |= 1u << p;
    }
    return m;
}

static void describe_moves(const Move *mv, int n, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n && k + 2 < size; i++) {
        char t[MOVE_MAX_TEXT];
        move_format(mv[i], t, sizeof t);
        k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? " " : "", t);
    }
}

static int find_move(const Move *mv, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (move_eq(mv[i], m))
            return i;
    return -1;
}

static void run_case(void **state)
{
    const Case *c = *state;
    Cards hand[5] = {0};
    uint8_t seat[5] = {0, 1, 2, 3, 4};
    int first = -1, rev = 0, lock = 0, table_owner = -1, started = 0, last_ev = 0;
    int out_order[5], nout = 0;
    Move table = move_pass();
    GameState g;
    memset(&g, 0, sizeof g);
    for (int li = 0; li < c->nlines; li++) {
        int ln = c->lineno[li];
        char buf[256];
        snprintf(buf, sizeof buf, "%s", c->text[li]);
        char *tok[64] = {0};
        int nt = tokens(buf, tok, 64);
        if (nt == 0)
            continue;
        int reps = 1, off = 0;
        if (!strcmp(tok[0], "repeat")) {
            CHECK(nt >= 3, "repeat N CMD");
            reps = atoi(tok[1]);
            off = 2;
        }
        const char *cmd = tok[off];
        char **arg = tok + off + 1;
        int na = nt - off - 1;
        int setup = !strcmp(cmd, "hand") || !strcmp(cmd, "seat") || !strcmp(cmd, "first") || !strcmp(cmd, "table") ||
                    !strcmp(cmd, "rev") || !strcmp(cmd, "lock") || !strcmp(cmd, "out");
        if (setup) {
            CHECK(!started, "setup command after play started");
            if (!strcmp(cmd, "hand")) {
                CHECK(na >= 1, "hand P CARDS");
                int p = atoi(arg[0]);
                char cards[200] = "";
                for (int i = 1; i < na; i++) {
                    strcat(cards, arg[i]);
                    strcat(cards, " ");
                }
                CHECK(cards_parse(cards, &hand[p]) == 0, "bad cards '%s'", cards);
            } else if (!strcmp(cmd, "seat")) {
                CHECK(na == 5, "seat needs 5 players");
                for (int s = 0; s < 5; s++)
                    seat[s] = (uint8_t)atoi(arg[s]);
            } else if (!strcmp(cmd, "first")) {
                first = atoi(arg[0]);
            } else if (!strcmp(cmd, "table")) {
                CHECK(na == 2, "table MOVE OWNER");
                table = parse_move(arg[0], ln);
                table_owner = atoi(arg[1]);
            } else if (!strcmp(cmd, "rev")) {
                rev = atoi(arg[0]);
            } else if (!strcmp(cmd, "lock")) {
                lock = atoi(arg[0]);
            } else if (!strcmp(cmd, "out")) {
                for (int i = 0; i < na; i++)
                    out_order[nout++] = atoi(arg[i]);
            }
            continue;
        }
        if (!started) {
            Cards all = 0;
            for (int p = 0; p < 5; p++) {
                CHECK(!(all & hand[p]), "a card is in two hands");
                all |= hand[p];
            }
            if (first < 0)
                first = game_first_player(hand);
            state_init(&g, hand, seat, first);
            g.rev = (uint8_t)rev;
            g.lock = (uint8_t)lock;
            if (table_owner >= 0) {
                g.table = table;
                g.owner = (uint8_t)table_owner;
            }
            for (int i = 0; i < nout; i++) {
                g.out |= (uint8_t)(1u << out_order[i]);
                g.order[g.nout++] = (uint8_t)out_order[i];
            }
            for (int p = 0; p < 5; p++)
                CHECK(hand[p] || ((g.out >> p) & 1), "player %d has no cards and is not listed in `out`", p);
            started = 1;
        }
        for (int r = 0; r < reps; r++) {
            if (!strcmp(cmd, "play")) {
                CHECK(na == 1, "play MOVE");
                CHECK(!g.over, "play after the game is over");
                Move m = parse_move(arg[0], ln);
                CHECK(state_is_legal(&g, m), "'%s' is not legal for player %d", arg[0], g.turn);
                Move mv[MOVEGEN_MAX];
                int n = state_moves(&g, mv);
                CHECK(find_move(mv, n, m) >= 0 || m.type == MOVE_PASS, "'%s' is legal but not generated", arg[0]);
                last_ev = state_apply(&g, m);
            } else if (!strcmp(cmd, "illegal") || !strcmp(cmd, "legal")) {
                Move m = parse_move(arg[0], ln);
                int want = cmd[0] == 'l';
                CHECK(state_is_legal(&g, m) == want, "'%s' should be %s for player %d", arg[0],
                      want ? "legal" : "illegal", g.turn);
                if (!want) {
                    Move mv[MOVEGEN_MAX];
                    int n = state_moves(&g, mv);
                    CHECK(find_move(mv, n, m) < 0, "illegal '%s' is generated", arg[0]);
                }
            } else if (!strcmp(cmd, "moves")) {
                Move mv[MOVEGEN_MAX];
                int n = state_moves(&g, mv);
                char got[2048];
                describe_moves(mv, n, got, sizeof got);
                CHECK(n == na, "expected %d moves, generated %d: %s", na, n, got);
                for (int i = 0; i < na; i++) {
                    Move m = parse_move(arg[i], ln);
                    CHECK(find_move(mv, n, m) >= 0, "'%s' not generated; got: %s", arg[i], got);
                }
                for (int i = 0; i < n; i++)
                    CHECK(state_is_legal(&g, mv[i]), "generated move %d is not legal: %s", i, got);
            } else if (!strcmp(cmd, "expect")) {
                CHECK(na >= 1, "expect KEY VALUE");
                const char *k = arg[0];
                if (!strcmp(k, "turn")) {
                    CHECK(g.turn == atoi(arg[1]), "turn is %d, expected %s", g.turn, arg[1]);
                } else if (!strcmp(k, "table")) {
                    Move want = !strcmp(arg[1], "empty") ? move_pass() : parse_move(arg[1], ln);
                    char t[MOVE_MAX_TEXT];
                    move_format(g.table, t, sizeof t);
                    CHECK(move_eq(g.table, want), "table is %s, expected %s", g.table.type ? t : "empty", arg[1]);
                } else if (!strcmp(k, "rev")) {
                    CHECK(g.rev == atoi(arg[1]), "rev is %d", g.rev);
                } else if (!strcmp(k, "lock")) {
                    CHECK(g.lock == atoi(arg[1]), "lock is %d", g.lock);
                } else if (!strcmp(k, "owner")) {
                    CHECK(g.owner == atoi(arg[1]), "owner is %d", g.owner);
                } else if (!strcmp(k, "over")) {
                    CHECK(g.over == atoi(arg[1]), "over is %d", g.over);
                } else if (!strcmp(k, "npass")) {
                    CHECK(g.npass == atoi(arg[1]), "npass is %d", g.npass);
                } else if (!strcmp(k, "order")) {
                    CHECK(g.nout >= na - 1, "only %d players in the order", g.nout);
                    for (int i = 1; i < na; i++)
                        CHECK(g.order[i - 1] == atoi(arg[i]), "order[%d] is %d, expected %s", i - 1, g.order[i - 1],
                              arg[i]);
                } else if (!strcmp(k, "out")) {
                    unsigned m = player_set(arg + 1, na - 1, ln);
                    CHECK(g.out == m, "out mask is 0x%x, expected 0x%x", g.out, m);
                } else if (!strcmp(k, "passed")) {
                    unsigned m = player_set(arg + 1, na - 1, ln);
                    CHECK(g.passed == m, "passed mask is 0x%x, expected 0x%x", g.passed, m);
                } else if (!strcmp(k, "hand")) {
                    int p = atoi(arg[1]);
                    char cards[200] = "";
                    for (int i = 2; i < na; i++) {
                        strcat(cards, arg[i]);
                        strcat(cards, " ");
                    }
                    Cards want;
                    CHECK(cards_parse(cards, &want) == 0, "bad cards");
                    CHECK(g.hand[p] == want, "hand of %d differs", p);
                } else if (!strcmp(k, "ev")) {
                    static const struct {
                        const char *n;
                        int f;
                    } fl[] = {{"clear", EV_CLEAR},         {"finish", EV_FINISH},         {"over", EV_OVER},
                              {"stalemate", EV_STALEMATE}, {"revolution", EV_REVOLUTION}, {"lock", EV_LOCK},
                              {"none", 0}};
                    int want = 0;
                    for (int i = 1; i < na; i++) {
                        int found = 0;
                        for (size_t j = 0; j < sizeof fl / sizeof fl[0]; j++)
                            if (!strcmp(arg[i], fl[j].n)) {
                                want |= fl[j].f;
                                found = 1;
                            }
                        CHECK(found, "unknown event '%s'", arg[i]);
                    }
                    CHECK(last_ev == want, "events 0x%x, expected 0x%x", last_ev, want);
                } else {
                    CHECK(0, "unknown expectation '%s'", k);
                }
            } else {
                CHECK(0, "unknown command '%s'", cmd);
            }
        }
    }
}

int main(int argc, char **argv)
{
    if (argc > 1)
        data_path = argv[1];
    load_cases();
    struct CMUnitTest *tests = calloc((size_t)ncases, sizeof *tests);
    for (int i = 0; i < ncases; i++) {
        tests[i].name = cases[i].name;
        tests[i].test_func = run_case;
        tests[i].initial_state = &cases[i];
    }
    int rc = _cmocka_run_group_tests("rules", tests, (size_t)ncases, NULL, NULL);
    free(tests);
    free(cases);
    return rc;
}
