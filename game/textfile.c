/* textfile.c — reading users' text files with bounded memory and one set of messages
 * (textfile.h). */
#include "game/textfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char BOM[3] = {'\xef', '\xbb', '\xbf'};

/* The message for a failed read (errno errnum) of path. */
static void read_error(const char *path, int errnum, char *err, size_t errsz)
{
    if (errnum == EISDIR)
        snprintf(err, errsz, "%s is a directory, not a file", path);
    else
        snprintf(err, errsz, "cannot read %s: %s", path, strerror(errnum ? errnum : EIO));
}

FILE *textfile_open(const char *path, char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsz, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        read_error(path, EISDIR, err, errsz);
        fclose(f);
        return NULL;
    }
    return f;
}

/* The 1-based line of text[at]. */
static long line_at(const char *text, size_t at)
{
    long line = 1;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + at - p))); p++)
        line++;
    return line;
}

static void size_error(const char *path, size_t max, char *err, size_t errsz)
{
    if (max >= (1u << 20) && max % (1u << 20) == 0)
        snprintf(err, errsz, "%s: larger than %zu MiB", path, max >> 20);
    else
        snprintf(err, errsz, "%s: larger than %zu bytes", path, max);
}

int textfile_read(const char *path, size_t max, char **text, size_t *len, char *err, size_t errsz)
{
    *text = NULL;
    FILE *f = textfile_open(path, err, errsz);
    if (!f)
        return -1;
    char *t = NULL;
    size_t n = 0, cap = 0;
    int rc = -1;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            size_t c = cap ? 2 * cap : 65536 + 1;
            if (c > max + 65536 + 1)
                c = max + 65536 + 1;
            char *t2 = realloc(t, c);
            if (!t2) {
                snprintf(err, errsz, "%s: out of memory", path);
                goto out;
            }
            t = t2;
            cap = c;
        }
        size_t k = fread(t + n, 1, 65536, f);
        const char *nul = memchr(t + n, 0, k);
        if (nul) {
            snprintf(err, errsz, "%s:%ld: a NUL byte: not a text file", path, line_at(t, (size_t)(nul - t)));
            goto out;
        }
        n += k;
        if (n > max) {
            size_error(path, max, err, errsz);
            goto out;
        }
        if (k < 65536)
            break;
    }
    if (ferror(f)) {
        read_error(path, errno, err, errsz);
        goto out;
    }
    t[n] = 0;
    if (n >= 3 && !memcmp(t, BOM, 3)) /* a UTF-8 byte order mark (some Windows editors) */
        memmove(t, t + 3, (n -= 3) + 1);
    *text = t;
    t = NULL;
    if (len)
        *len = n;
    rc = 0;
out:
    free(t);
    fclose(f);
    return rc;
}

int textfile_line(FILE *f, const char *path, long *line, size_t max, char **buf, size_t *cap, size_t *len, char *err,
                  size_t errsz)
{
    size_t n = 0;
    int c;
    errno = 0;
    for (;;) {
        if (n + 1 >= *cap) { /* room for this byte and the final NUL */
            size_t nc = *cap ? 2 * *cap : 256;
            if (nc > max + 2)
                nc = max + 2;
            char *b = realloc(*buf, nc);
            if (!b) {
                snprintf(err, errsz, "%s:%ld: out of memory", path, *line + 1);
                return -1;
            }
            *buf = b;
            *cap = nc;
        }
        if ((c = getc_unlocked(f)) == EOF || c == '\n')
            break;
        if (c == 0) {
            snprintf(err, errsz, "%s:%ld: a NUL byte: not a text file", path, *line + 1);
            return -1;
        }
        if (n >= max) {
            snprintf(err, errsz, "%s:%ld: a line longer than %zu bytes", path, *line + 1, max);
            return -1;
        }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && ferror(f)) {
        read_error(path, errno, err, errsz);
        return -1;
    }
    if (c == EOF && n == 0)
        return 0;
    if (*line == 0 && n >= 3 && !memcmp(*buf, BOM, 3)) {
        memmove(*buf, *buf + 3, n - 3);
        n -= 3;
    }
    ++*line;
    if (n > 0 && (*buf)[n - 1] == '\r')
        n--;
    (*buf)[n] = 0;
    *len = n;
    return 1;
}
