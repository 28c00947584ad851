/* textfile.h — reading the text files users hand to dhm (policy weights, estimation models,
 * deal lists, kifu records): the whole of a small file, or one bounded line at a time. Every
 * byte is untrusted; every refusal is one line that names the file, the line where there is
 * one, and what is wrong:
 *   cannot open PATH: <the system's reason>     PATH is a directory, not a file
 *   cannot read PATH: <the system's reason>     PATH:LINE: a NUL byte: not a text file
 *   PATH: larger than N MiB                     PATH:LINE: a line longer than N bytes
 * A UTF-8 byte order mark at the start of a file is dropped; a '\r' before '\n' is too.
 * Memory is bounded by the caller's max; nothing waits for the end of an endless file
 * (/dev/zero is refused at its first byte). The text and the line buffer belong to the caller.
 */
#ifndef DHM_TEXTFILE_H
#define DHM_TEXTFILE_H

#include <stddef.h>
#include <stdio.h>

/* fopen(path, "r"), refusing a directory. NULL with the reason in err. */
FILE *textfile_open(const char *path, char *err, size_t errsz);

/* The whole file, at most max bytes, as a NUL-terminated string in *text (free it), its length
 * in *len (may be NULL). Returns 0, or -1 with the reason in err. */
int textfile_read(const char *path, size_t max, char **text, size_t *len, char *err, size_t errsz);

/* The next line of f, without its end of line ('\n', and a '\r' before it), into *buf (grown
 * as needed, NUL-terminated; free it when done), its length in *len. *line counts the lines
 * read (start it at 0). Returns 1, 0 at the end of the file, or -1 with "PATH:LINE: why" (a
 * NUL byte, a line over max bytes) or "cannot read PATH: why" in err. */
int textfile_line(FILE *f, const char *path, long *line, size_t max, char **buf, size_t *cap, size_t *len, char *err,
                  size_t errsz);

#endif
