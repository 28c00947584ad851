/* bench_net.c — the UECda server over loopback: `dhm serve` with five `dhm connect simple`
 * clients for 1,000 games, and 100 games for comparison with the official server (100 games in
 * about 1.8 s with the organisers' sample clients). Uses the dhm binary in $DHM. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static double served(const char *dhm, int games)
{
    char dir[] = "/tmp/dhm-bench-XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    char err[128], cmd[512];
    snprintf(err, sizeof err, "%s/err", dir);
    snprintf(cmd, sizeof cmd, "exec %s serve --port 0 --games %d --seed 1 --quiet > /dev/null 2> %s", dhm, games, err);
    pid_t srv = fork();
    if (srv == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int port = 0;
    for (int i = 0; i < 500 && !port; i++) {
        char buf[256] = "";
        FILE *f = fopen(err, "r");
        if (f) {
            buf[fread(buf, 1, sizeof buf - 1, f)] = 0;
            fclose(f);
            char *l = strstr(buf, "listening on 127.0.0.1:");
            if (l)
                port = atoi(l + strlen("listening on 127.0.0.1:"));
        }
        if (!port)
            usleep(10000);
    }
    double t0 = bench_now();
    pid_t cl[5];
    for (int i = 0; i < 5; i++) {
        char port_s[16];
        snprintf(port_s, sizeof port_s, "%d", port);
        cl[i] = fork();
        if (cl[i] == 0) {
            freopen("/dev/null", "w", stdout);
            execl(dhm, dhm, "connect", "--port", port_s, "--player", "simple", "--quiet", (char *)NULL);
            _exit(127);
        }
        usleep(20000);
    }
    int st, bad = 0;
    waitpid(srv, &st, 0);
    double t = bench_now() - t0;
    if (!WIFEXITED(st) || WEXITSTATUS(st)) {
        fprintf(stderr, "bench_net: dhm serve ended with status %d\n", st);
        bad = 1;
    }
    for (int i = 0; i < 5; i++) {
        waitpid(cl[i], &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st)) { /* a crashed client makes the timing meaningless */
            fprintf(stderr, "bench_net: dhm connect client %d ended with status %d\n", i, st);
            bad = 1;
        }
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd)) {
    }
    return bad ? -1 : t;
}

int main(void)
{
    const char *dhm = getenv("DHM") ? getenv("DHM") : "build/dhm";
    double t100 = served(dhm, 100);
    if (t100 < 0)
        return 1;
    bench_report("serve_100_games_5_connect_simple", t100, "s");
    double t = served(dhm, 1000);
    if (t < 0)
        return 1;
    bench_report("serve_1000_games_5_connect_simple", t, "s");
    bench_report("serve_games_per_second_loopback", 1000.0 / t, "games/s");
    return 0;
}
