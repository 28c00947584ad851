/* gift_pick.c — for tools/gift_repeat.sh: reads lines "N CARD CARD ..." (N cards to give from the
 * hand that follows, kifu notation) and prints, for each, the gift the gift model (the weights
 * file named by the argument) ranks first and the one the built-in rich policy's exchange weights
 * rank first, as "CARDS|CARDS". Built against build/libdhm.a by the script (not by make). */
#include <stdio.h>
#include <string.h>
#include "players/gift.h"
#include "players/policy.h"
#include "players/rich.h"
int main(int argc, char **argv)
{
    static GiftWeights w;
    char err[512], line[1024];
    if (argc != 2) {
        fprintf(stderr, "usage: gift_pick GIFT.weights < hands\n");
        return 2;
    }
    if (gift_load(argv[1], &w, err, sizeof err)) {
        fprintf(stderr, "gift_pick: %s\n", err);
        return 1;
    }
    const RichWeights *rw = rich_builtin(err, sizeof err);
    if (!rw) {
        fprintf(stderr, "gift_pick: %s\n", err);
        return 1;
    }
    while (fgets(line, sizeof line, stdin)) {
        int n = line[0] - '0';
        Cards h;
        line[strcspn(line, "\n")] = 0;
        if ((n != 1 && n != 2) || line[1] != ' ' || cards_parse(line + 2, &h)) {
            fprintf(stderr, "gift_pick: not 'N CARDS': %s\n", line);
            return 1;
        }
        char a[256], b[256];
        cards_format(gift_pick(&w, h, n, 0, NULL), a, sizeof a);
        cards_format(policy_pick_gift_w(rw->exch, h, n, 0, NULL), b, sizeof b);
        printf("%s|%s\n", a, b);
    }
    return 0;
}
