/* svg.c — inline SVG charts (svg.h). */
#include "report/svg.h"

#include <math.h>
#include <string.h>

void html_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if (c >= 0x20 || c == '\t')
                fputc(c, f);
        }
    }
}

int svg_ticks(double lo, double hi, int max, double *out)
{
    if (!isfinite(lo) || !isfinite(hi) || max < 1)
        return 0;
    if (hi < lo) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    if (hi - lo < 1e-12 * fmax(1, fabs(lo)) || max < 2) {
        out[0] = lo;
        return 1;
    }
    const double mag = pow(10, floor(log10((hi - lo) / (max - 1))));
    static const double MULT[4] = {1, 2, 5, 10};
    double step = 10 * mag;
    for (int j = 0; j < 4; j++) /* the smallest step that gives at most max ticks */
        if (floor(hi / (MULT[j] * mag)) - ceil(lo / (MULT[j] * mag)) + 1 <= max) {
            step = MULT[j] * mag;
            break;
        }
    int n = 0;
    for (double k = ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9 && n < max; k++)
        out[n++] = fabs(k) < 0.5 ? 0 : k * step;
    return n;
}

/* ---- plumbing ---- */

static const char *const PALETTE[10] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static void begin(FILE *f, const char *id, const char *title, double w, double h)
{
    fprintf(f, "<svg class=\"chart\" id=\"");
    html_esc(f, id);
    fprintf(f, "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\">"
               "<title>",
            w, h, w, h);
    html_esc(f, title);
    fprintf(f, "</title>\n<text class=\"ct\" x=\"8\" y=\"16\">");
    html_esc(f, title);
    fprintf(f, "</text>\n");
}

static void end(FILE *f) { fprintf(f, "</svg>\n"); }

static void no_data(FILE *f, const char *id, const char *title)
{
    begin(f, id, title, 360, 60);
    fprintf(f, "<text class=\"nd\" x=\"8\" y=\"42\">no data</text>\n");
    end(f);
}

static void label(FILE *f, double x, double y, const char *anchor, const char *cls, const char *s)
{
    fprintf(f, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", cls, x, y, anchor);
    html_esc(f, s);
    fprintf(f, "</text>");
}

static void num_label(FILE *f, double x, double y, const char *anchor, double v)
{
    char b[32];
    snprintf(b, sizeof b, "%g", v);
    label(f, x, y, anchor, "tk", b);
}

/* A horizontal value axis from x0 to x1 (pixels) for [lo, hi], with grid lines down to y1. */
static void x_axis(FILE *f, double x0, double x1, double y0, double y1, double lo, double hi, const char *xlabel)
{
    double t[16];
    int n = svg_ticks(lo, hi, 8, t);
    for (int i = 0; i < n; i++) {
        double x = x0 + (t[i] - lo) / (hi - lo) * (x1 - x0);
        fprintf(f, "<line class=\"gr\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x, y0, x, y1);
        num_label(f, x, y1 + 14, "middle", t[i]);
    }
    fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0, y1, x1, y1);
    if (xlabel)
        label(f, (x0 + x1) / 2, y1 + 30, "middle", "al", xlabel);
}

/* The finite range of up to three arrays (lo, hi may be NULL); padded by 5%. 0 if none. */
static int range(int n, const double *a, const double *b, const double *c, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    const double *arr[3] = {a, b, c};
    for (int k = 0; k < 3; k++)
        for (int i = 0; arr[k] && i < n; i++)
            if (isfinite(arr[k][i])) {
                *lo = fmin(*lo, arr[k][i]);
                *hi = fmax(*hi, arr[k][i]);
            }
    if (*lo > *hi)
        return 0;
    double pad = (*hi - *lo) * 0.05;
    if (pad <= 0)
        pad = fabs(*lo) > 0 ? fabs(*lo) * 0.05 : 1;
    *lo -= pad;
    *hi += pad;
    return 1;
}

/* Row height and whether to print each label, for n rows. */
static double row_h(int n) { return n <= 40 ? 18 : n <= 200 ? 8 : 3; }
static int label_every(int n) { return n <= 40 ? 1 : n <= 200 ? 2 : n / 50; }

/* ---- charts ---- */

void chart_intervals(FILE *f, const char *id, const char *title, const char *xlabel, int n, const char *const *labels,
                     const double *value, const double *lo, const double *hi)
{
    double a, b;
    if (n <= 0 || !range(n, value, lo, hi, &a, &b)) {
        no_data(f, id, title);
        return;
    }
    const double rh = row_h(n), left = 170, right = 660, top = 30, height = top + n * rh + 44;
    begin(f, id, title, 700, height);
    x_axis(f, left, right, top, top + n * rh, a, b, xlabel);
    const int every = label_every(n);
    for (int i = 0; i < n; i++) {
        double y = top + (i + 0.5) * rh;
        if (i % every == 0)
            label(f, left - 6, y + 4, "end", "lb", labels[i]);
        double l = lo ? lo[i] : NAN, h = hi ? hi[i] : NAN, v = value[i];
        if (isfinite(l) && isfinite(h)) {
            double x0 = left + (l - a) / (b - a) * (right - left), x1 = left + (h - a) / (b - a) * (right - left);
            fprintf(f, "<rect class=\"ci\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", x0, y - rh * 0.2,
                    fmax(x1 - x0, 1), fmax(rh * 0.4, 1));
        }
        if (isfinite(v))
            fprintf(f, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>", left + (v - a) / (b - a) * (right - left),
                    y, rh >= 8 ? 3.5 : 1.5);
        fputc('\n', f);
    }
    end(f);
}

void chart_lines(FILE *f, const char *id, const char *title, const char *xlabel, const char *ylabel, int nseries,
                 const char *const *names, int npoints, const double *x, const double *y)
{
    double xa, xb, ya, yb;
    if (nseries <= 0 || npoints <= 0 || !range(npoints, x, NULL, NULL, &xa, &xb) ||
        !range(nseries * npoints, y, NULL, NULL, &ya, &yb)) {
        no_data(f, id, title);
        return;
    }
    const int legend = nseries <= 40 ? nseries : 0;
    const double left = 60, right = 540, top = 30, bottom = 330, height = 380 + (legend > 20 ? (legend - 20) * 14 : 0);
    begin(f, id, title, 720, fmax(height, 380));
    x_axis(f, left, right, top, bottom, xa, xb, xlabel);
    double t[16];
    int nt = svg_ticks(ya, yb, 8, t);
    for (int i = 0; i < nt; i++) {
        double yy = bottom - (t[i] - ya) / (yb - ya) * (bottom - top);
        fprintf(f, "<line class=\"gr\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", left, yy, right, yy);
        num_label(f, left - 4, yy + 4, "end", t[i]);
    }
    fprintf(f, "<line class=\"ax\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left, top, left, bottom);
    if (ylabel) {
        fprintf(f, "<text class=\"al\" x=\"14\" y=\"%.1f\" transform=\"rotate(-90 14 %.1f)\" text-anchor=\"middle\">",
                (top + bottom) / 2, (top + bottom) / 2);
        html_esc(f, ylabel);
        fprintf(f, "</text>\n");
    }
    for (int s = 0; s < nseries; s++) {
        const char *col = PALETTE[s % 10];
        int open = 0;
        for (int i = 0; i < npoints; i++) {
            double xv = x[i], yv = y[(size_t)s * npoints + i];
            if (!isfinite(xv) || !isfinite(yv)) {
                if (open)
                    fprintf(f, "\"/>\n");
                open = 0;
                continue;
            }
            if (!open)
                fprintf(f, "<polyline class=\"ln\" stroke=\"%s\" points=\"", col);
            fprintf(f, "%s%.1f,%.1f", open ? " " : "", left + (xv - xa) / (xb - xa) * (right - left),
                    bottom - (yv - ya) / (yb - ya) * (bottom - top));
            open = 1;
        }
        if (open)
            fprintf(f, "\"/>\n");
        if (s < legend) {
            double ly = top + 4 + s * 14;
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"3\" fill=\"%s\"/>", right + 12, ly, col);
            label(f, right + 26, ly + 5, "start", "lb", names[s]);
            fputc('\n', f);
        }
    }
    end(f);
}

static void heat_colour(double r, char *buf, size_t n)
{
    if (!isfinite(r)) {
        snprintf(buf, n, "#dddddd");
        return;
    }
    r = r < 0 ? 0 : r > 1 ? 1 : r;
    int red, green, blue;
    if (r < 0.5) { /* blue to white */
        double t = r / 0.5;
        red = (int)(49 + t * (255 - 49));
        green = (int)(130 + t * (255 - 130));
        blue = (int)(189 + t * (255 - 189));
    } else { /* white to red */
        double t = (r - 0.5) / 0.5;
        red = (int)(255 + t * (214 - 255));
        green = (int)(255 + t * (39 - 255));
        blue = (int)(255 + t * (40 - 255));
    }
    snprintf(buf, n, "#%02x%02x%02x", red, green, blue);
}

void chart_heatmap(FILE *f, const char *id, const char *title, int n, const char *const *labels, const double *rate,
                   const double *count)
{
    if (n <= 0) {
        no_data(f, id, title);
        return;
    }
    const double cell = n <= 12 ? 40 : n <= 30 ? 22 : n <= 100 ? 6 : 600.0 / n, left = 170, top = n <= 30 ? 130 : 40;
    const int text = n <= 30, names = n <= 100;
    begin(f, id, title, fmax(700, left + n * cell + 20), top + n * cell + 30);
    for (int i = 0; i < n; i++) {
        if (names) {
            label(f, left - 6, top + (i + 0.5) * cell + 4, "end", "lb", labels[i]);
            if (text) {
                double x = left + (i + 0.5) * cell, y = top - 6;
                fprintf(f, "<text class=\"lb\" x=\"%.1f\" y=\"%.1f\" transform=\"rotate(-60 %.1f %.1f)\">", x, y, x, y);
                html_esc(f, labels[i]);
                fprintf(f, "</text>");
            }
        }
        for (int j = 0; j < n; j++) {
            char col[16];
            double r = i == j ? NAN : rate[(size_t)i * n + j];
            heat_colour(r, col, sizeof col);
            fprintf(f, "<rect class=\"hc\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">",
                    left + j * cell, top + i * cell, cell, cell, col);
            if (isfinite(r)) {
                fprintf(f, "<title>");
                html_esc(f, labels[i]);
                fprintf(f, " over ");
                html_esc(f, labels[j]);
                fprintf(f, ": %.3f", r);
                if (count && isfinite(count[(size_t)i * n + j]))
                    fprintf(f, " of %.0f", count[(size_t)i * n + j]);
                fprintf(f, "</title>");
            }
            fprintf(f, "</rect>");
            if (text && count && i != j && isfinite(count[(size_t)i * n + j]) && count[(size_t)i * n + j] > 0) {
                char b[32];
                snprintf(b, sizeof b, "%.0f", count[(size_t)i * n + j]);
                label(f, left + (j + 0.5) * cell, top + (i + 0.5) * cell + 4, "middle", "hn", b);
            }
        }
        fputc('\n', f);
    }
    end(f);
}

void chart_stacked(FILE *f, const char *id, const char *title, int n, const char *const *labels, int k,
                   const char *const *parts, const double *share)
{
    if (n <= 0 || k <= 0) {
        no_data(f, id, title);
        return;
    }
    const double rh = row_h(n), left = 170, right = 560, top = 30 + 18;
    begin(f, id, title, 700, top + n * rh + 30);
    for (int j = 0; j < k; j++) { /* legend */
        double x = left + j * 90;
        fprintf(f, "<rect x=\"%.1f\" y=\"24\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, PALETTE[j % 10]);
        label(f, x + 14, 33, "start", "lb", parts[j]);
    }
    fputc('\n', f);
    const int every = label_every(n);
    for (int i = 0; i < n; i++) {
        double y = top + i * rh, x = left, total = 0;
        for (int j = 0; j < k; j++)
            total += isfinite(share[(size_t)i * k + j]) && share[(size_t)i * k + j] > 0 ? share[(size_t)i * k + j] : 0;
        if (i % every == 0)
            label(f, left - 6, y + rh * 0.5 + 4, "end", "lb", labels[i]);
        for (int j = 0; j < k && total > 0; j++) {
            double s = share[(size_t)i * k + j];
            if (!isfinite(s) || s <= 0)
                continue;
            double w = s / total * (right - left);
            fprintf(f, "<rect class=\"sb\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>", x,
                    y + rh * 0.1, w, fmax(rh * 0.8, 1), PALETTE[j % 10]);
            x += w;
        }
        fputc('\n', f);
    }
    end(f);
}

void chart_bars(FILE *f, const char *id, const char *title, const char *xlabel, int n, const char *const *labels,
                const double *value)
{
    double a, b;
    if (n <= 0 || !range(n, value, NULL, NULL, &a, &b)) {
        no_data(f, id, title);
        return;
    }
    a = fmin(a, 0);
    b = fmax(b, 0);
    const double rh = row_h(n), left = 170, right = 660, top = 30;
    begin(f, id, title, 700, top + n * rh + 44);
    x_axis(f, left, right, top, top + n * rh, a, b, xlabel);
    const double zero = left + (0 - a) / (b - a) * (right - left);
    const int every = label_every(n);
    for (int i = 0; i < n; i++) {
        double y = top + i * rh;
        if (i % every == 0)
            label(f, left - 6, y + rh * 0.5 + 4, "end", "lb", labels[i]);
        if (!isfinite(value[i]))
            continue;
        double x = left + (value[i] - a) / (b - a) * (right - left);
        fprintf(f, "<rect class=\"br\" x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\"/>\n", fmin(x, zero),
                y + rh * 0.15, fmax(fabs(x - zero), 1), fmax(rh * 0.7, 1));
    }
    end(f);
}
