/* io.h — TCP helpers for the UECda protocol: listening and connecting, TCP_NODELAY on every
 * socket, tables written with one send() call (clients read a table with one read()), reads
 * that loop until the whole message is in, optional deadlines, and no SIGPIPE (MSG_NOSIGNAL).
 * Return codes: 0 ok, NET_CLOSED (peer closed or error), NET_TIMEOUT. */
#ifndef DHM_NET_IO_H
#define DHM_NET_IO_H

#include <stddef.h>

#include "net/table.h"

#define NET_CLOSED (-1)
#define NET_TIMEOUT (-2)

/* Binds and listens on bind_addr:port (port 0 = any free port; *actual gets it). Returns the
 * socket, or -1 with a one-line reason in err ("port 42485 on 127.0.0.1 is in use"). */
/* A monotonic clock in milliseconds, for deadlines. */
long long net_now_ms(void);

int net_listen(const char *bind_addr, int port, int *actual, char *err, size_t errsz);
/* Accepts one connection, waiting at most timeout_ms (< 0 = forever). Returns the socket,
 * NET_TIMEOUT, or NET_CLOSED. The peer's address goes to peer (may be NULL). */
int net_accept(int lfd, int timeout_ms, char *peer, size_t peersz);
/* Connects to host:port. Returns the socket or -1 with a reason in err. */
int net_connect(const char *host, int port, char *err, size_t errsz);
/* TCP_NODELAY, and a send timeout so that a peer that stops reading cannot block us. */
void net_tune(int fd, int send_timeout_ms);

int net_write(int fd, const void *buf, size_t n);
/* Reads exactly n bytes; timeout_ms < 0 waits forever. */
int net_read(int fd, void *buf, size_t n, int timeout_ms);

/* A buffered reader for a peer that sends several messages at once (a client reading the
 * server): one recv() fetches whatever has arrived. */
typedef struct NetBuf {
    int fd;
    size_t start, end;
    uint8_t b[4096];
} NetBuf;
void netbuf_init(NetBuf *nb, int fd);
int netbuf_read(NetBuf *nb, void *buf, size_t n, int timeout_ms);

int net_send_table(int fd, const Table *t);
int net_recv_table(int fd, Table *t, int timeout_ms);
int net_send_int(int fd, int32_t v);
int net_recv_int(int fd, int32_t *v, int timeout_ms);

#endif
