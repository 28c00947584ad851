/* test_badinput.c — every reader of a user's file, handed bad files of every shape: the
 * command's exit status and its one line on stderr, word for word (the file named, the line
 * where there is one, what is wrong). One table row a case: the policy weights (weights=),
 * the estimation model (est-model=), deal lists (--deals), kifu records (replay) and the
 * store (--db); the Python side is python/tests/test_badinput.py. Good files of unusual shapes
 * (CRLF, a byte order mark, a 1 MiB comment) must load: their rows expect status 0 and no
 * message. */
#include "testutil.h"

#include <sys/stat.h>

#include "players/estimate.h"
#include "players/policy.h"

static char dir[256];

static void path(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }

static void write_bytes(const char *name, const char *data, size_t n)
{
    char p[512];
    path(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* A growing text. */
typedef struct Buf {
    char *s;
    size_t n, cap;
} Buf;

static void put(Buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (b->s && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        b->cap = 2 * (b->cap + (size_t)k + 64);
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
}

static void save(Buf *b, const char *name)
{
    write_bytes(name, b->s, b->n);
    free(b->s);
    memset(b, 0, sizeof *b);
}

/* Policy weights: all zeros, one number a line from line 4 on (so the line of weight i is
 * 4 + i); `count` (NULL: the right one) is the play count, `bad` (if not NULL) replaces weight
 * `at`, `eol` ends every line, `upto` cuts the file after that many play weights, `head`
 * comes first. */
static void policy_file(const char *name, const char *head, const char *count, int at, const char *bad, const char *eol,
                        int upto)
{
    Buf b = {0};
    char n[32];
    snprintf(n, sizeof n, "%d", POLICY_NPLAY);
    put(&b, "%sdhm-policy 1%slayout %016llx%splay %s%s", head, eol, (unsigned long long)policy_layout_hash(), eol,
        count ? count : n, eol);
    for (int i = 0; i < POLICY_NPLAY && i < upto; i++)
        put(&b, "%s%s", i == at && bad ? bad : "0", eol);
    if (upto >= POLICY_NPLAY) {
        put(&b, "exchange %d%s", POLICY_NEXCH, eol);
        for (int i = 0; i < POLICY_NEXCH; i++)
            put(&b, "0%s", eol);
        put(&b, "end%s", eol);
    }
    save(&b, name);
}

/* An estimation model, all zeros; `eol` ends every line; a comment of `comment` bytes after
 * the first line; `prior_lines` prior lines only; `row0` replaces the first prior line; `tail`
 * ends the file. */
static void est_file(const char *name, const char *eol, size_t comment, int prior_lines, const char *row0,
                     const char *tail)
{
    Buf b = {0};
    put(&b, "dhm estimation model 1%s", eol);
    if (comment) {
        char *c = malloc(comment + 1);
        assert_non_null(c);
        memset(c, 'x', comment);
        c[comment] = 0;
        put(&b, "# %s%s", c, eol);
        free(c);
    }
    for (int c = 0; c < prior_lines; c++) {
        if (c == 0 && row0) {
            put(&b, "%s%s", row0, eol);
            continue;
        }
        put(&b, "prior");
        for (int k = 0; k < EST_BINS; k++)
            put(&b, " 0");
        put(&b, "%s", eol);
    }
    for (int e = 0; prior_lines == EST_CLASSES && e < EST_EVENTS; e++) {
        put(&b, "ev");
        for (int k = 0; k < EST_REL; k++)
            put(&b, "\t0.5");
        put(&b, "%s", eol);
    }
    put(&b, "%s", tail);
    save(&b, name);
}

static const char *DEAL = "{ c3 s3 h4 h6 d8 s8 dt cj hq ck } { d3 c7 d7 h7 h8 s9 cq da h2 s2 } "
                          "{ d4 c5 s5 c6 d6 c8 d9 dq ca ha c2 } { h3 s4 h5 s7 ct dj sj sq dk sk d2 } "
                          "{ c4 d5 s6 c9 h9 ht st hj hk sa jo }";

static long file_size(const char *name)
{
    char p[512];
    struct stat st;
    path(p, sizeof p, name);
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

/* The bad (and the odd but good) files. */
static void make_files(void)
{
    const int all = 1 << 30;
    /* policy weights */
    char longw[80];
    snprintf(longw, sizeof longw, "0.%061dgarbage", 0);
    policy_file("pw-long", "", NULL, 2, longw, "\n", all);
    policy_file("pw-count", "", "2443abc", -1, NULL, "\n", all);
    policy_file("pw-nan", "", NULL, 5, "nan", "\n", all);
    policy_file("pw-short", "", NULL, -1, NULL, "\n", 7);
    policy_file("pw-crlf", "", NULL, -1, NULL, "\r\n", all);
    policy_file("pw-bom", "\357\273\277", NULL, -1, NULL, "\n", all);
    write_bytes("pw-nul", "dhm-policy 1\nlayout\0", 20);
    write_bytes("pw-empty", "", 0);
    /* estimation models */
    est_file("em-crlf", "\r\n", 0, EST_CLASSES, NULL, "");
    est_file("em-big", "\n", (size_t)3 << 19, EST_CLASSES, NULL, ""); /* 1.5 MiB of comment */
    est_file("em-cut", "\n", 0, 3, NULL, "");
    est_file("em-tail", "\n", 0, EST_CLASSES, NULL, "  \t"); /* blanks, and no end of line */
    est_file("em-word", "\n", 0, EST_CLASSES, "prior 0 0 x", "");
    est_file("em-range", "\n", 0, EST_CLASSES, "prior 1000", "");
    est_file("em-short", "\n", 0, EST_CLASSES, "prior 0 0", "");
    write_bytes("em-empty", "", 0);
    write_bytes("em-other", "dhm-policy 1\n", 13);
    /* deal lists */
    static const char nul[] = "# a deal list with a NUL byte on line 2\n\0\n";
    write_bytes("dl-nul", nul, sizeof nul - 1);
    Buf b = {0};
    put(&b, "%s\r\n%s  # a comment after a deal\r\n", DEAL, DEAL);
    save(&b, "dl-crlf");
    put(&b, "\357\273\277%s\n", DEAL);
    save(&b, "dl-bom");
    put(&b, "# nothing but a comment\n\n");
    save(&b, "dl-none");
    put(&b, "\n{ c3 } { d3 }\n");
    save(&b, "dl-four");
    put(&b, "%s\n%s\n", DEAL, DEAL);
    memcpy(strstr(b.s + strlen(DEAL) + 1, "c3"), "s2", 2); /* deal 2: s2 twice, no c3 */
    save(&b, "dl-twice");
    char *longline = malloc((1 << 20) + 2);
    assert_non_null(longline);
    memset(longline, '#', (1 << 20) + 1);
    longline[(1 << 20) + 1] = '\n';
    write_bytes("dl-long", longline, (1 << 20) + 2);
    free(longline);
    char p[512], out[256];
    path(p, sizeof p, "a-dir");
    assert_int_equal(mkdir(p, 0755), 0);
    /* kifu */
    write_bytes("k-nul", "player a b c d e\n\0", 18);
    /* stores: a finished run, cut at half, and at 50 bytes; a text file */
    write_bytes("pool.txt", "a simple\nb random\nc simple\nd random\ne simple\n", 45);
    assert_int_equal(run_cmd(out, sizeof out,
                             "cd %s && %s tournament --pool pool.txt --sets 20 --games 100 --records --seed 3 "
                             "--db run.sqlite --quiet 2>&1",
                             dir, dhm_bin()),
                     0);
    path(p, sizeof p, "run.sqlite-wal");
    assert_int_equal(access(p, F_OK), -1); /* closed cleanly: the file holds every page */
    assert_true(file_size("run.sqlite") > 100000);
    assert_int_equal(run_cmd(out, sizeof out,
                             "cd %s && head -c %ld run.sqlite > half.sqlite && head -c 50 run.sqlite > head.sqlite && "
                             "printf 'not a database at all' > text.sqlite",
                             dir, file_size("run.sqlite") / 2),
                     0);
}

typedef struct Case {
    const char *cmd;  /* after "dhm "; {} is replaced by the test's directory */
    int status;       /* the exit status */
    const char *want; /* the whole of stderr (one line, {} as above); "" = nothing */
} Case;

#define PLAY "play --games 1 --quiet "
#define POLICY PLAY "--players policy:weights={}/"
#define FIVE ",simple,simple,simple,simple"
#define EST PLAY "--players mc:sims=5:est=weights:est-model={}/"
#define DEALS PLAY "--deals {}/"

static const Case CASES[] = {
    /* policy weights (issue 31: long words were cut, counts read with atoi) */
    {POLICY "pw-long" FIVE, 2,
     "dhm play: player 0: policy: weights={}/pw-long: {}/pw-long:6: '0.000000000000000000...' (70 characters) is not a "
     "number"},
    {POLICY "pw-count" FIVE, 2,
     "dhm play: player 0: policy: weights={}/pw-count: {}/pw-count:3: 'play 2443abc': the count of play weights is not "
     "a whole number"},
    {POLICY "pw-nan" FIVE, 2, "dhm play: player 0: policy: weights={}/pw-nan: {}/pw-nan:9: 'nan' is not a number"},
    {POLICY "pw-short" FIVE, 2,
     "dhm play: player 0: policy: weights={}/pw-short: {}/pw-short: the file ends after 7 of %P play weights "
     "(truncated)"},
    {POLICY "pw-nul" FIVE, 2, "dhm play: player 0: policy: weights={}/pw-nul: {}/pw-nul:2: a NUL byte: not a text file"},
    {POLICY "pw-empty" FIVE, 2,
     "dhm play: player 0: policy: weights={}/pw-empty: {}/pw-empty: not a dhm policy weights file (it must start with "
     "'dhm-policy 1')"},
    {POLICY "a-dir" FIVE, 2, "dhm play: player 0: policy: weights={}/a-dir: {}/a-dir is a directory, not a file"},
    {POLICY "none" FIVE, 2,
     "dhm play: player 0: policy: weights={}/none: cannot open {}/none: No such file or directory"},
    {PLAY "--players policy:weights=/dev/zero" FIVE, 2,
     "dhm play: player 0: policy: weights=/dev/zero: /dev/zero:1: a NUL byte: not a text file"},
    {POLICY "pw-crlf" FIVE, 0, ""},
    {POLICY "pw-bom" FIVE, 0, ""},
    /* the estimation model (CRLF was refused, >1 MiB cut, a directory or /dev/zero misnamed) */
    {EST "em-crlf" FIVE, 0, ""},
    {EST "em-big" FIVE, 0, ""},
    {EST "em-tail" FIVE, 0, ""}, /* looped forever once (fuzz_estmodel) */
    {EST "a-dir" FIVE, 2, "dhm play: player 0: mc: est-model={}/a-dir: {}/a-dir is a directory, not a file"},
    {PLAY "--players mc:sims=5:est=weights:est-model=/dev/zero" FIVE, 2,
     "dhm play: player 0: mc: est-model=/dev/zero: /dev/zero:1: a NUL byte: not a text file"},
    {EST "em-empty" FIVE, 2,
     "dhm play: player 0: mc: est-model={}/em-empty: {}/em-empty: empty, not a dhm estimation model"},
    {EST "em-other" FIVE, 2,
     "dhm play: player 0: mc: est-model={}/em-other: {}/em-other: not a dhm estimation model (its first line must be "
     "'dhm estimation model 1')"},
    {EST "em-cut" FIVE, 2,
     "dhm play: player 0: mc: est-model={}/em-cut: {}/em-cut: truncated: 3 of %C prior lines and 0 of %E ev lines"},
    {EST "em-word" FIVE, 2, "dhm play: player 0: mc: est-model={}/em-word: {}/em-word:2: 'x' is not a number"},
    {EST "em-range" FIVE, 2, "dhm play: player 0: mc: est-model={}/em-range: {}/em-range:2: 1000 is outside [-100, 100]"},
    {EST "em-short" FIVE, 2,
     "dhm play: player 0: mc: est-model={}/em-short: {}/em-short:2: the prior line has 2 of its %B numbers"},
    {EST "none" FIVE, 2, "dhm play: player 0: mc: est-model={}/none: cannot open {}/none: No such file or directory"},
    /* deal lists (a directory was "holds no deal", a NUL byte "line too long") */
    {DEALS "a-dir", 2, "dhm play: --deals: {}/a-dir is a directory, not a file"},
    {DEALS "dl-nul", 2, "dhm play: --deals: {}/dl-nul:2: a NUL byte: not a text file"},
    {PLAY "--deals /dev/zero", 2, "dhm play: --deals: /dev/zero:1: a NUL byte: not a text file"},
    {DEALS "dl-none", 2, "dhm play: --deals: {}/dl-none holds no deal (no kifu game, no deal line)"},
    {DEALS "dl-four", 2, "dhm play: --deals: {}/dl-four:2: expected five { cards } groups"},
    {DEALS "dl-twice", 2, "dhm play: --deals: {}/dl-twice:2: hand 1 shares a card with an earlier hand"},
    {DEALS "dl-long", 2, "dhm play: --deals: {}/dl-long:1: a line longer than 1048576 bytes"},
    {DEALS "none", 2, "dhm play: --deals: cannot open {}/none: No such file or directory"},
    {"tournament --pool {}/pool.txt --deals {}/a-dir --db {}/new.sqlite", 2,
     "dhm tournament: --deals: {}/a-dir is a directory, not a file"},
    {DEALS "dl-crlf", 0, ""},
    {DEALS "dl-bom", 0, ""},
    /* the store (a cut-short copy was "not a dhm tournament database") */
    {"rate --db {}/half.sqlite", 1, "dhm rate: damaged database {}/half.sqlite: cut short (%H of its %S bytes; a copy "
                                    "that stopped early?)"},
    {"rate --db {}/head.sqlite", 1,
     "dhm rate: damaged database {}/head.sqlite: cut short (50 bytes, less than SQLite's 100-byte header)"},
    {"tournament --resume --db {}/half.sqlite", 1,
     "dhm tournament: damaged database {}/half.sqlite: cut short (%H of its %S bytes; a copy that stopped early?)"},
    {"tournament --pool {}/pool.txt --db {}/half.sqlite", 1,
     "dhm tournament: damaged database {}/half.sqlite: cut short (%H of its %S bytes; a copy that stopped early?)"},
    {"rate --db {}/text.sqlite", 1, "dhm rate: {}/text.sqlite is not a dhm tournament database"},
    {"rate --db {}/a-dir", 1, "dhm rate: {}/a-dir is a directory, not a dhm tournament database"},
    {"rate --db /dev/zero", 1, "dhm rate: /dev/zero is not a regular file (a device or a pipe), not a dhm tournament "
                               "database"},
    {"tournament --pool {}/pool.txt --db /dev/null", 1,
     "dhm tournament: /dev/null is not a regular file (a device or a pipe), not a dhm tournament database"},
};

/* s with {} -> dir and the %X numbers filled in. */
static void expand(char *out, size_t n, const char *s)
{
    size_t k = 0;
    out[0] = 0;
    for (; *s && k + 1 < n; s++) {
        char num[32] = "";
        if (s[0] == '{' && s[1] == '}') {
            k += (size_t)snprintf(out + k, n - k, "%s", dir);
            s++;
            continue;
        }
        if (s[0] == '%' && s[1]) {
            long v = s[1] == 'P' ? POLICY_NPLAY : s[1] == 'C' ? EST_CLASSES : s[1] == 'E' ? EST_EVENTS
                   : s[1] == 'B' ? EST_BINS : s[1] == 'S' ? file_size("run.sqlite") : file_size("half.sqlite");
            snprintf(num, sizeof num, "%ld", v);
            k += (size_t)snprintf(out + k, n - k, "%s", num);
            s++;
            continue;
        }
        out[k++] = *s;
        out[k] = 0;
    }
}

static void test_bad_files(void **state)
{
    (void)state;
    make_files();
    char err_path[512];
    path(err_path, sizeof err_path, "stderr.txt");
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char cmd[2048], want[2048];
        expand(cmd, sizeof cmd, CASES[i].cmd);
        expand(want, sizeof want, CASES[i].want);
        Proc p;
        proc_start(&p, "/dev/null", err_path, "%s %s", dhm_bin(), cmd);
        int rc = proc_wait(&p, 60);
        char got[4096];
        const char *e = slurp_file(err_path);
        size_t len = strlen(e) < sizeof got ? strlen(e) : sizeof got - 1;
        memcpy(got, e, len);
        got[len] = 0;
        if (*want && len > 0 && got[len - 1] == '\n')
            got[--len] = 0; /* one line: its newline, and nothing after it */
        if (rc != CASES[i].status || strcmp(got, want))
            fail_msg("dhm %s\n  exit %d, want %d\n  stderr: '%s'\n  want:   '%s'", cmd, rc, CASES[i].status, got, want);
    }
}

/* The kifu reader under replay: the problem is named (on stdout, with the summary), and the
 * exit status says the file was unreadable (it was "0 games ... 0 with problems", status 0). */
static void test_kifu_files(void **state)
{
    (void)state;
    static const struct {
        const char *file, *line;
    } cases[] = {
        {"{}/k-nul", "{}/k-nul:2: a NUL byte: not a text file"},
        {"/dev/zero", "/dev/zero:1: a NUL byte: not a text file"},
        {"{}/a-dir", "{}/a-dir is a directory, not a file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char file[512], line[512], out[4096];
        expand(file, sizeof file, cases[i].file);
        expand(line, sizeof line, cases[i].line);
        assert_int_equal(run_cmd(out, sizeof out, "%s replay %s", dhm_bin(), file), 1);
        char want[1200];
        snprintf(want, sizeof want, "%s\n0 games, 0 plays replayed: 0 with problems, some files unreadable\n", line);
        assert_string_equal(out, want);
    }
}

int main(void)
{
    assert_non_null(test_tmpdir(dir, sizeof dir));
    static char abs_dhm[1024]; /* the commands run from the test's directory */
    if (realpath(dhm_bin(), abs_dhm))
        setenv("DHM", abs_dhm, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_kifu_files),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char out[64];
    run_cmd(out, sizeof out, "rm -rf %s", dir);
    return rc;
}
