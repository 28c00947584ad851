/* bench_watch.c — what the live view costs a served match: `dhm serve` with five `dhm connect
 * simple` clients for 1,000 games over loopback, without --watch, and with --watch and 0, 1 or
 * 16 viewers reading the event stream as fast as they can, and with one viewer that never reads.
 * The match's time runs from the first client's start to the last client's exit (the end of the
 * match; a server with a stalled viewer then waits up to 2 s more for it, outside the match).
 * Rounds alternate the configurations (in turn forwards and backwards, so that no configuration
 * always runs right after another); each reports its best round (this VM's neighbours add
 * noise) and how much slower it is than the best round without --watch, and the server
 * process's CPU time (user + system, its best round), which the load disturbs far less than
 * the wall clock, and the median over the rounds of each round's time against the same round's
 * time without --watch (a drifting load cancels out of a round). Uses $DHM. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define GAMES 1000
#define ROUNDS 4 /* DHM_BENCH_ROUNDS overrides (at most 32) */

typedef struct Viewer {
    int port, fd, stall;
    long bytes;
    pthread_t th;
} Viewer;

static void *viewer(void *arg)
{
    Viewer *v = arg;
    char buf[1 << 15];
    ssize_t k;
    while ((k = recv(v->fd, buf, sizeof buf, 0)) > 0)
        v->bytes += k;
    return NULL;
}

static int viewer_open(Viewer *v)
{
    v->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (v->stall) { /* a small window, so it stops the server's writes soon */
        int sz = 4096;
        setsockopt(v->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
    }
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)v->port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const char *req = "GET /events HTTP/1.1\r\nHost: bench\r\n\r\n";
    if (connect(v->fd, (struct sockaddr *)&a, sizeof a) || send(v->fd, req, strlen(req), MSG_NOSIGNAL) < 0)
        return -1;
    return v->stall ? 0 : pthread_create(&v->th, NULL, viewer, v);
}

/* The port after key in the file (waiting up to 5 s), or 0. */
static int port_in(const char *path, const char *key)
{
    for (int i = 0; i < 500; i++) {
        char buf[1024] = "";
        FILE *f = fopen(path, "r");
        if (f) {
            buf[fread(buf, 1, sizeof buf - 1, f)] = 0;
            fclose(f);
            char *l = strstr(buf, key);
            if (l)
                return atoi(l + strlen(key));
        }
        usleep(10000);
    }
    return 0;
}

/* Seconds of one match (watch: with --watch; nview viewers, stall: one more that never reads);
 * *cpu: the server's CPU seconds. */
static double match_secs(const char *dhm, int watch, int nview, int stall, long *bytes, double *cpu)
{
    char dir[] = "/tmp/dhm-bench-XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    char err[128], cmd[512];
    snprintf(err, sizeof err, "%s/err", dir);
    snprintf(cmd, sizeof cmd, "exec %s serve --port 0 --games %d --seed 1 --quiet%s > /dev/null 2> %s", dhm, GAMES,
             watch ? " --watch 0" : "", err);
    pid_t srv = fork();
    if (srv == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    int port = port_in(err, "listening on 127.0.0.1:"), wport = watch ? port_in(err, "watch live at http://127.0.0.1:") : 0;
    Viewer v[17];
    int nv = nview + (stall ? 1 : 0), bad = !port || (watch && !wport);
    for (int i = 0; i < nv && !bad; i++) {
        v[i] = (Viewer){.port = wport, .stall = i == nview};
        bad = viewer_open(&v[i]) != 0;
    }
    double t0 = bench_now(), t = -1;
    pid_t cl[5];
    char port_s[16];
    snprintf(port_s, sizeof port_s, "%d", port);
    for (int i = 0; i < 5 && !bad; i++) {
        cl[i] = fork();
        if (cl[i] == 0) {
            if (!freopen("/dev/null", "w", stdout))
                _exit(126);
            execl(dhm, dhm, "connect", "--port", port_s, "--player", "simple", "--quiet", (char *)NULL);
            _exit(127);
        }
        usleep(20000);
    }
    int st;
    for (int i = 0; i < 5 && !bad; i++) {
        waitpid(cl[i], &st, 0);
        bad |= !WIFEXITED(st) || WEXITSTATUS(st); /* a crashed client makes the timing meaningless */
    }
    if (!bad)
        t = bench_now() - t0;
    if (bad)
        kill(srv, SIGKILL);
    struct rusage ru;
    wait4(srv, &st, 0, &ru);
    *cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
    if (!bad && (!WIFEXITED(st) || WEXITSTATUS(st))) {
        fprintf(stderr, "bench_watch: dhm serve ended with status %d\n", st);
        t = -1;
    }
    *bytes = 0;
    for (int i = 0; i < nv; i++) {
        if (!v[i].stall)
            pthread_join(v[i].th, NULL);
        *bytes += v[i].bytes;
        close(v[i].fd);
    }
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    if (system(rm) != 0)
        fprintf(stderr, "bench_watch: could not remove %s\n", dir);
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    const char *dhm = getenv("DHM") ? getenv("DHM") : "build/dhm";
    static const struct {
        const char *name;
        int watch, nview, stall;
    } C[] = {{"watch_serve_1000_games_no_watch", 0, 0, 0},
             {"watch_serve_1000_games_0_viewers", 1, 0, 0},
             {"watch_serve_1000_games_1_viewer", 1, 1, 0},
             {"watch_serve_1000_games_16_viewers", 1, 16, 0},
             {"watch_serve_1000_games_1_stalled_viewer", 1, 0, 1}};
    enum { NC = sizeof C / sizeof C[0] };
    const char *re = getenv("DHM_BENCH_ROUNDS");
    const int rounds = re && atoi(re) > 0 && atoi(re) <= 32 ? atoi(re) : ROUNDS;
    double best[NC], cpu[NC], secs[32][NC];
    long bytes[NC] = {0};
    for (int c = 0; c < NC; c++)
        best[c] = cpu[c] = 1e9;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < NC; i++) {
            const int c = r % 2 ? NC - 1 - i : i;
            long b;
            double u, s = match_secs(dhm, C[c].watch, C[c].nview, C[c].stall, &b, &u);
            if (s <= 0)
                return 1;
            secs[r][c] = s;
            if (s < best[c])
                best[c] = s;
            if (u < cpu[c])
                cpu[c] = u;
            bytes[c] = b;
        }
    for (int c = 0; c < NC; c++) {
        char n[96];
        bench_report(C[c].name, GAMES / best[c], "games/s");
        if (c) {
            snprintf(n, sizeof n, "%s_slower", C[c].name);
            bench_report(n, 100 * (best[c] / best[0] - 1), "% (goal <= 5)");
            double ratio[32];
            for (int r = 0; r < rounds; r++)
                ratio[r] = secs[r][c] / secs[r][0];
            qsort(ratio, (size_t)rounds, sizeof ratio[0], cmp_double);
            const double med = rounds % 2 ? ratio[rounds / 2] : (ratio[rounds / 2 - 1] + ratio[rounds / 2]) / 2;
            snprintf(n, sizeof n, "%s_slower_paired", C[c].name);
            bench_report(n, 100 * (med - 1), "% (median over rounds)");
        }
        snprintf(n, sizeof n, "%s_server_cpu", C[c].name);
        bench_report(n, cpu[c], "s (user + system)");
        if (C[c].nview) {
            snprintf(n, sizeof n, "%s_stream", C[c].name);
            bench_report(n, (double)bytes[c] / C[c].nview / 1024, "KiB per viewer");
        }
    }
    return 0;
}
