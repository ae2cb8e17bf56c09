// Small socket helpers shared by the TCP transport's
// files (tcp.cpp: the mesh and frames; tcp_join.cpp: joining connections).
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>

#include <netinet/in.h>

namespace ftmpi::transport::sockets {

std::runtime_error sys_error(const std::string &what);
void set_nonblocking(int fd);
void set_nodelay(int fd);
// TCP keepalive on a connected socket, so a connection to a host that died
// silently ends in an error after about FTMPI_TCP_KEEPALIVE_S (default 30)
// + 3 probes 5 s apart. Far above the VM's failure timeout: the VM is the
// fast path, this only ends connections nobody else declared dead.
void set_keepalive(int fd);
// Blocking I/O bounded by a deadline (the mesh, a joining handshake).
bool io_all(int fd, void *buf, size_t len, bool write, std::chrono::steady_clock::time_point deadline);
// "host:port" → address; throws std::runtime_error for a bad one.
sockaddr_in parse_address(const std::string &address);
// Connects a new socket to `sa` before `deadline` (non-blocking connect, so a
// dead host costs at most the deadline); returns the fd or -1.
int connect_before(const sockaddr_in &sa, std::chrono::steady_clock::time_point deadline);
// "ip:port" of the other end, for log lines.
std::string peer_name(int fd);

}  // namespace ftmpi::transport::sockets
