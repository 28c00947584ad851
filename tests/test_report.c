/* test_report.c — the HTML report: the SVG writer on its own (escaping, ticks, empty and NaN
 * data, one player, a thousand players), and `dhm report` end to end, checked in a real browser:
 * headless Chromium loads the page (console and network errors are failures), a copy of it with
 * a measuring script reports every chart's geometry from the DOM, and a screenshot is taken. */
#include "testutil.h"

#include "report/svg.h"

/* ---- the SVG writer ---- */

static char *mem;
static size_t memlen;

static FILE *mopen(void)
{
    free(mem);
    mem = NULL;
    FILE *f = open_memstream(&mem, &memlen);
    assert_non_null(f);
    return f;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* Balanced, well-formed enough: one <svg> and one </svg>, no raw '<' in text, every number
 * finite. */
static void check_svg(const char *s)
{
    assert_int_equal(count(s, "<svg"), 1);
    assert_int_equal(count(s, "</svg>"), 1);
    assert_null(strstr(s, "nan"));
    assert_null(strstr(s, "inf"));
    assert_null(strstr(s, "NaN"));
    assert_null(strstr(s, "<script"));
}

static void test_svg_writer(void **state)
{
    (void)state;
    double t[16];
    int n = svg_ticks(0, 1, 6, t);
    assert_true(n >= 3 && n <= 6);
    NEAR(t[0], 0, 1e-12);
    NEAR(t[n - 1], 1, 1e-12);
    n = svg_ticks(1234, 1876, 8, t);
    assert_true(n >= 3 && n <= 8);
    for (int i = 0; i < n; i++) {
        assert_true(t[i] >= 1234 - 1e-9 && t[i] <= 1876 + 1e-9);
        assert_true(fmod(t[i], 50) == 0 || fmod(t[i], 100) == 0 || fmod(t[i], 200) == 0);
    }
    assert_int_equal(svg_ticks(NAN, 1, 5, t), 0);
    assert_int_equal(svg_ticks(5, 5, 5, t), 1);
    n = svg_ticks(-0.003, 0.004, 8, t);
    assert_true(n >= 3);
    for (int i = 1; i < n; i++)
        assert_true(t[i] > t[i - 1]);

    /* names are escaped everywhere they appear */
    const char *evil[2] = {"<b>&\"x'", "ok"};
    double v[2] = {1500, 1400}, lo[2] = {1450, NAN}, hi[2] = {1550, NAN};
    FILE *f = mopen();
    chart_intervals(f, "a&b", "t<i>tle", "x", 2, evil, v, lo, hi);
    fclose(f);
    check_svg(mem);
    assert_null(strstr(mem, "<b>"));
    assert_non_null(strstr(mem, "&lt;b&gt;&amp;&quot;x&#39;"));
    assert_non_null(strstr(mem, "id=\"a&amp;b\""));
    assert_int_equal(count(mem, "<circle"), 2);
    assert_int_equal(count(mem, "class=\"ci\""), 1); /* the NaN interval is left out, its point kept */

    /* empty and all-NaN data: "no data", no axes */
    double nan2[2] = {NAN, NAN};
    f = mopen();
    chart_intervals(f, "e", "empty", "x", 0, evil, v, lo, hi);
    chart_bars(f, "e2", "all missing", "x", 2, evil, nan2);
    chart_lines(f, "e3", "no points", "x", "y", 1, evil, 0, v, v);
    chart_heatmap(f, "e4", "none", 0, evil, v, v);
    chart_stacked(f, "e5", "none", 0, evil, 2, evil, v);
    fclose(f);
    assert_int_equal(count(mem, "no data"), 5);
    assert_int_equal(count(mem, "<svg"), 5);
    assert_null(strstr(mem, "nan"));

    /* one player */
    const char *one[1] = {"solo"};
    double r1[1] = {NAN}, c1[1] = {0}, s5[5] = {0.2, 0.2, NAN, 0.4, 0.2};
    f = mopen();
    chart_heatmap(f, "h1", "one", 1, one, r1, c1);
    fclose(f);
    check_svg(mem);
    assert_int_equal(count(mem, "class=\"hc\""), 1);
    f = mopen();
    const char *parts[5] = {"a", "b", "c", "d", "e"};
    chart_stacked(f, "s1", "one", 1, one, 5, parts, s5);
    fclose(f);
    check_svg(mem);
    assert_int_equal(count(mem, "class=\"sb\""), 4); /* the NaN share is no bar */

    /* lines with gaps: a NaN breaks a polyline in two */
    double x[5] = {1, 2, 3, 4, 5}, y[5] = {1, 2, NAN, 4, 5};
    f = mopen();
    chart_lines(f, "l", "gaps", "x", "y", 1, one, 5, x, y);
    fclose(f);
    check_svg(mem);
    assert_int_equal(count(mem, "<polyline"), 2);

    /* a thousand players: every row drawn, geometry finite, labels thinned */
    enum { N = 1000 };
    static const char *names[N];
    static char buf[N][16];
    static double vv[N], ll[N], hh[N], rate[50 * 50], cnt[50 * 50];
    for (int i = 0; i < N; i++) {
        snprintf(buf[i], sizeof buf[i], "p%04d", i);
        names[i] = buf[i];
        vv[i] = 1500 + i;
        ll[i] = vv[i] - 30;
        hh[i] = vv[i] + 30;
    }
    f = mopen();
    chart_intervals(f, "big", "a thousand", "rating", N, names, vv, ll, hh);
    fclose(f);
    check_svg(mem);
    assert_int_equal(count(mem, "<circle"), N);
    assert_int_equal(count(mem, "class=\"ci\""), N);
    assert_true(count(mem, "class=\"lb\"") < N);
    for (int i = 0; i < 50 * 50; i++) {
        rate[i] = (i % 7) / 6.0;
        cnt[i] = i % 5;
    }
    f = mopen();
    chart_heatmap(f, "hm", "fifty", 50, names, rate, cnt);
    fclose(f);
    check_svg(mem);
    assert_int_equal(count(mem, "class=\"hc\""), 2500);
    free(mem);
    mem = NULL;
}

/* ---- the report in a browser ---- */

static const char MEASURE[] =
    "<script>window.addEventListener('load',function(){var o=[];"
    "document.querySelectorAll('svg.chart').forEach(function(s){var r=s.getBoundingClientRect(),k=0;"
    "s.querySelectorAll('rect,circle,polyline,line').forEach(function(e){var b=e.getBBox();if(b.width>0||b.height>0)k++;});"
    "o.push('GEOM '+s.id+' '+Math.round(r.width)+' '+Math.round(r.height)+' '+k);});"
    "var p=document.createElement('pre');p.id='geom';p.textContent=o.join('\\n');document.body.appendChild(p);});"
    "</script>";

/* Width, height and drawn shapes of chart `id` in the measured DOM; 0 if absent. */
static int geom(const char *dom, const char *id, int *w, int *h, int *shapes)
{
    char key[96];
    snprintf(key, sizeof key, "GEOM %s ", id);
    const char *p = strstr(dom, key);
    return p && sscanf(p + strlen(key), "%d %d %d", w, h, shapes) == 3;
}

static void test_report_in_a_browser(void **state)
{
    (void)state;
    char dir[64];
    static char out[1 << 16], dom[1 << 20];
    const char *D = dhm_bin();
    assert_non_null(test_tmpdir(dir, sizeof dir));
    char path[256];
    snprintf(path, sizeof path, "%s/pool", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "alpha+1 simple\nbeta.co random\ngamma simple\ndelta policy\neps random\nzeta simple\n");
    fclose(f);
    assert_int_equal(run_cmd(out, sizeof out, "%s tournament --pool %s/pool --sets 8 --games 10 --records --db %s/t.sqlite "
                                              "--quiet 2>&1", D, dir, dir), 0);
    assert_int_equal(run_cmd(out, sizeof out, "%s handstrength --db %s/t.sqlite --playouts 100 --quiet 2>&1", D, dir), 0);
    assert_int_equal(run_cmd(out, sizeof out, "%s errorrate --db %s/t.sqlite --worlds 4 --evaluator mc:sims=50:playout=simple "
                                              "--save --quiet 2>&1", D, dir), 0);
    assert_non_null(strstr(out, "saved 6 players' error rates"));
    assert_int_equal(run_cmd(out, sizeof out, "%s report --db %s/t.sqlite -o %s/r.html", D, dir, dir), 0);
    char html[256];
    snprintf(html, sizeof html, "%s/r.html", dir);
    const char *page = slurp_file(html);
    assert_true(strlen(page) > 5000);
    /* self-contained: no script, nothing fetched (the SVG namespace is a name, not a fetch) */
    assert_null(strstr(page, "<script"));
    assert_null(strstr(page, "src="));
    assert_null(strstr(page, "<link"));
    assert_null(strstr(page, "url("));
    assert_non_null(strstr(page, "alpha+1"));
    /* every chart has its numbers in a table */
    static const char *const CHARTS[] = {"rating-sts", "rating-bt", "trajectories", "crosstable", "classes", "mse",
                                         "hand-mean-p", "hand-calibration", "errorrate"};
    const int ncharts = (int)(sizeof CHARTS / sizeof CHARTS[0]);
    assert_true(count(page, "<table") >= ncharts);
    /* a real browser: no console or network errors on the page itself */
    int rc = run_cmd(out, sizeof out,
                     "cd %s && timeout 120 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr "
                     "--v=0 --window-size=1200,4000 --screenshot=%s/r.png file://%s 2>&1",
                     dir, dir, html);
    if (rc != 0)
        fail_msg("chromium failed (%d): %.2000s", rc, out);
    assert_null(strstr(out, "CONSOLE"));
    assert_null(strstr(out, "net::ERR"));
    assert_null(strstr(out, "Uncaught"));
    char png[256];
    snprintf(png, sizeof png, "%s/r.png", dir);
    struct stat st;
    assert_int_equal(stat(png, &st), 0);
    assert_true(st.st_size > 20000); /* a page of charts, not a blank */
    /* the geometry of every chart, measured in the DOM by a script added to a copy */
    char measured[256];
    snprintf(measured, sizeof measured, "%s/m.html", dir);
    f = fopen(measured, "w");
    assert_non_null(f);
    fputs(page, f);
    fputs(MEASURE, f);
    fclose(f);
    rc = run_cmd(dom, sizeof dom,
                 "cd %s && timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom file://%s 2>/dev/null", dir,
                 measured);
    assert_int_equal(rc, 0);
    for (int i = 0; i < ncharts; i++) {
        int w = 0, h = 0, shapes = 0;
        if (!geom(dom, CHARTS[i], &w, &h, &shapes))
            fail_msg("chart %s is missing from the rendered page", CHARTS[i]);
        if (w < 100 || h < 50 || shapes < 3)
            fail_msg("chart %s has no geometry: %dx%d, %d shapes", CHARTS[i], w, h, shapes);
    }
    /* bad input */
    assert_int_equal(run_cmd(out, sizeof out, "%s report 2>&1", D), 2);
    assert_int_equal(run_cmd(out, sizeof out, "%s report --db %s/none.sqlite 2>&1", D, dir), 1);
    assert_int_equal(run_cmd(out, sizeof out, "%s report --db %s/t.sqlite --method frob 2>&1", D, dir), 2);
    assert_int_equal(run_cmd(out, sizeof out, "%s report --db %s/t.sqlite -o %s/no/such/dir.html 2>&1", D, dir, dir), 1);
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

/* The cells of the next row of a table from p on: header (th) or data (td) cells, their texts
 * into cells (up to max), their count returned; *end after the row. */
static int row_cells(const char *p, char cells[][32], int max, const char **end)
{
    const char *r = strstr(p, "<tr>"), *stop = r ? strstr(r, "</tr>") : NULL;
    int n = 0;
    if (!stop)
        return -1;
    for (const char *c = r; (c = strstr(c, "<t")) && c < stop; c++) {
        if (c[2] != 'h' && c[2] != 'd')
            continue;
        const char *text = strchr(c, '>') + 1, *close = strstr(text, "</t");
        if (n < max)
            snprintf(cells[n], sizeof cells[n], "%.*s", (int)(close - text < 31 ? close - text : 31), text);
        n++;
    }
    *end = stop + 5;
    return n;
}

/* Every rating table of the report names every column, and has only the columns its method
 * fills: an interval (lo, hi), else an uncertainty, else neither; games or sets as counted. */
static void test_rating_table_columns(void **state)
{
    (void)state;
    char dir[64], out[4096], html[256];
    const char *D = dhm_bin();
    assert_non_null(test_tmpdir(dir, sizeof dir));
    assert_int_equal(run_cmd(out, sizeof out, "printf 'a simple\\nb simple\\nc random\\nd random\\ne policy\\nf random\\n' "
                                              "> %s/pool && %s tournament --pool %s/pool --sets 6 --games 8 --db %s/t.sqlite "
                                              "--quiet >/dev/null && %s report --db %s/t.sqlite --method "
                                              "se,sg,sg2,sts,elo-game,bt,pl,melo -o %s/r.html",
                             dir, D, dir, dir, D, dir, dir),
                     0);
    snprintf(html, sizeof html, "%s/r.html", dir);
    const char *page = slurp_file(html);
    static const struct {
        const char *method, *columns;
    } WANT[] = {
        {"se", "#|player|rating|sets|bounded"},
        {"sg", "#|player|rating|uncertainty|sets|bounded"},
        {"sg2", "#|player|rating|uncertainty|sets|bounded"},
        {"sts", "#|player|rating|uncertainty|sets|bounded"},
        {"elo-game", "#|player|rating|games|bounded"},
        {"bt", "#|player|rating|lo|hi|sets|bounded"},
        {"pl", "#|player|rating|lo|hi|sets|bounded"},
        {"melo", "#|player|rating|sets|bounded"},
    };
    for (size_t m = 0; m < sizeof WANT / sizeof WANT[0]; m++) {
        char id[64], got[256] = "", cells[16][32];
        snprintf(id, sizeof id, "id=\"rating-%s\"", WANT[m].method);
        const char *p = strstr(page, id), *end;
        if (!p || !(p = strstr(p, "<table>")))
            fail_msg("no rating table for %s", WANT[m].method);
        int nh = row_cells(p, cells, 16, &end);
        for (int i = 0; i < nh; i++) {
            if (!cells[i][0])
                fail_msg("%s: header cell %d has no name", WANT[m].method, i + 1);
            strncat(got, i ? "|" : "", sizeof got - strlen(got) - 1);
            strncat(got, cells[i], sizeof got - strlen(got) - 1);
        }
        if (strcmp(got, WANT[m].columns))
            fail_msg("%s: columns '%s', want '%s'", WANT[m].method, got, WANT[m].columns);
        /* each of the six players' rows has a cell under every header, and no other */
        const char *tend = strstr(p, "</table>");
        int rows = 0;
        for (p = end; strstr(p, "<tr>") && strstr(p, "<tr>") < tend; p = end, rows++)
            if (row_cells(p, cells, 16, &end) != nh)
                fail_msg("%s: row %d does not have %d cells", WANT[m].method, rows + 1, nh);
        assert_int_equal(rows, 6);
    }
    run_cmd(NULL, 0, "rm -rf %s", dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_svg_writer),
        cmocka_unit_test(test_report_in_a_browser),
        cmocka_unit_test(test_rating_table_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
