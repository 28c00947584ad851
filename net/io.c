/* io.c — sockets for the UECda protocol. */
#include "net/io.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

long long net_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int net_listen(const char *bind_addr, int port, int *actual, char *err, size_t errsz)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, bind_addr, &a.sin_addr) != 1) {
        snprintf(err, errsz, "--bind: '%s' is not an IPv4 address", bind_addr);
        return -1;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errsz, "socket: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        int e = errno;
        close(fd);
        if (e == EADDRINUSE)
            snprintf(err, errsz, "port %d on %s is in use", port, bind_addr);
        else
            snprintf(err, errsz, "cannot listen on %s:%d: %s", bind_addr, port, strerror(e));
        return -1;
    }
    if (listen(fd, 16) < 0) {
        snprintf(err, errsz, "listen: %s", strerror(errno));
        close(fd);
        return -1;
    }
    socklen_t len = sizeof a;
    getsockname(fd, (struct sockaddr *)&a, &len);
    if (actual)
        *actual = ntohs(a.sin_port);
    return fd;
}

int net_accept(int lfd, int timeout_ms, char *peer, size_t peersz)
{
    struct pollfd p = {lfd, POLLIN, 0};
    int r;
    do
        r = poll(&p, 1, timeout_ms < 0 ? -1 : timeout_ms);
    while (r < 0 && errno == EINTR);
    if (r == 0)
        return NET_TIMEOUT;
    if (r < 0)
        return NET_CLOSED;
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    int fd = accept(lfd, (struct sockaddr *)&a, &len);
    if (fd < 0)
        return NET_CLOSED;
    fcntl(fd, F_SETFD, FD_CLOEXEC); /* client processes we start must not inherit it */
    if (peer) {
        char ip[INET_ADDRSTRLEN] = "?";
        inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
        snprintf(peer, peersz, "%s:%d", ip, ntohs(a.sin_port));
    }
    return fd;
}

int net_connect(const char *host, int port, char *err, size_t errsz)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    int rc = getaddrinfo(host, ps, &hints, &res);
    if (rc) {
        snprintf(err, errsz, "cannot resolve %s: %s", host, gai_strerror(rc));
        return -1;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen) < 0) {
        snprintf(err, errsz, "cannot connect to %s:%d: %s", host, port, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(res);
        return -1;
    }
    freeaddrinfo(res);
    net_tune(fd, 0);
    return fd;
}

void net_tune(int fd, int send_timeout_ms)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (send_timeout_ms > 0) {
        struct timeval tv = {send_timeout_ms / 1000, (send_timeout_ms % 1000) * 1000};
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    }
}

int net_write(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) { /* one send() for the whole message unless the kernel takes less */
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return NET_CLOSED;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Waits until fd is readable or the deadline passes (timeout_ms < 0: no deadline).
 * Returns 0 (readable), NET_TIMEOUT or NET_CLOSED. */
static int wait_readable(int fd, long long deadline, int timeout_ms)
{
    if (timeout_ms < 0)
        return 0;
    for (;;) {
        long long left = deadline - net_now_ms();
        struct pollfd pf = {fd, POLLIN, 0};
        int r = left > 0 ? poll(&pf, 1, (int)left) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        return r > 0 ? 0 : r == 0 ? NET_TIMEOUT : NET_CLOSED;
    }
}

int net_read(int fd, void *buf, size_t n, int timeout_ms)
{
    char *p = buf;
    long long deadline = timeout_ms >= 0 ? net_now_ms() + timeout_ms : 0;
    while (n > 0) {
        int w = wait_readable(fd, deadline, timeout_ms);
        if (w)
            return w;
        ssize_t k = recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return NET_CLOSED;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

void netbuf_init(NetBuf *nb, int fd)
{
    nb->fd = fd;
    nb->start = nb->end = 0;
}

int netbuf_read(NetBuf *nb, void *buf, size_t n, int timeout_ms)
{
    uint8_t *p = buf;
    long long deadline = timeout_ms >= 0 ? net_now_ms() + timeout_ms : 0;
    while (n > 0) {
        if (nb->start == nb->end) {
            int w = wait_readable(nb->fd, deadline, timeout_ms);
            if (w)
                return w;
            ssize_t k = recv(nb->fd, nb->b, sizeof nb->b, 0);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                return NET_CLOSED;
            nb->start = 0;
            nb->end = (size_t)k;
        }
        size_t take = nb->end - nb->start < n ? nb->end - nb->start : n;
        memcpy(p, nb->b + nb->start, take);
        nb->start += take;
        p += take;
        n -= take;
    }
    return 0;
}

int net_send_table(int fd, const Table *t)
{
    uint8_t buf[TABLE_BYTES];
    table_encode(t, buf);
    return net_write(fd, buf, sizeof buf);
}

int net_recv_table(int fd, Table *t, int timeout_ms)
{
    uint8_t buf[TABLE_BYTES];
    int rc = net_read(fd, buf, sizeof buf, timeout_ms);
    if (rc == 0)
        table_decode(buf, t);
    return rc;
}

int net_send_int(int fd, int32_t v)
{
    uint8_t b[4];
    int_encode(v, b);
    return net_write(fd, b, 4);
}

int net_recv_int(int fd, int32_t *v, int timeout_ms)
{
    uint8_t b[4];
    int rc = net_read(fd, b, 4, timeout_ms);
    if (rc == 0)
        *v = int_decode(b);
    return rc;
}
