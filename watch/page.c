/* page.c — the pages of the live view (page.h): the HTML files built in with the assembler's
 * .incbin (the Makefile rebuilds this file when they change), the shared CSS put in their place
 * of "/\*dhm-css*\/" once. */
#include "watch/page.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/view.h"

__asm__(".section .rodata\n"
        ".global watch_match_html\n"
        ".type watch_match_html, @object\n"
        "watch_match_html:\n"
        ".incbin \"watch/page_match.html\"\n"
        ".byte 0\n"
        ".size watch_match_html, . - watch_match_html\n"
        ".global watch_tournament_html\n"
        ".type watch_tournament_html, @object\n"
        "watch_tournament_html:\n"
        ".incbin \"watch/page_tournament.html\"\n"
        ".byte 0\n"
        ".size watch_tournament_html, . - watch_tournament_html\n"
        ".previous\n");
extern const char watch_match_html[], watch_tournament_html[];

static const char MARK[] = "/*dhm-css*/";
static char *match_page, *tournament_page;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static char *fill(const char *tpl)
{
    const char *at = strstr(tpl, MARK), *a = report_html_css(), *b = view_html_css();
    if (!at)
        return NULL;
    const size_t head = (size_t)(at - tpl), la = strlen(a), lb = strlen(b), tail = strlen(at + sizeof MARK - 1);
    char *s = malloc(head + la + lb + tail + 1);
    if (!s)
        return NULL;
    memcpy(s, tpl, head);
    memcpy(s + head, a, la);
    memcpy(s + head + la, b, lb);
    memcpy(s + head + la + lb, at + sizeof MARK - 1, tail + 1);
    return s;
}

static void build(void)
{
    match_page = fill(watch_match_html);
    tournament_page = fill(watch_tournament_html);
}

static const char *page(char **which)
{
    pthread_once(&once, build);
    return *which ? *which : "<!DOCTYPE html><title>dhm live</title><p>out of memory</p>";
}

const char *watch_page_match(void) { return page(&match_page); }
const char *watch_page_tournament(void) { return page(&tournament_page); }
