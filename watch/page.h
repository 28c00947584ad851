/* page.h — the live view's two pages (watch/page_match.html, watch/page_tournament.html, built
 * into the binary): self-contained HTML with inline CSS and script, nothing fetched but their
 * own event stream. The CSS of `dhm report` and `dhm view` is put in, so cards, moves and
 * tables look as they do there. Built once; the strings live as long as the process. */
#ifndef DHM_WATCH_PAGE_H
#define DHM_WATCH_PAGE_H

/* A served match or one set of a tournament (/set/K): the page reads its stream from the URL. */
const char *watch_page_match(void);
/* A tournament's progress, standings, failed sets and links to the sets being played. */
const char *watch_page_tournament(void);

#endif
