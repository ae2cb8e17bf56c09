// The ports this process opened and the listener that takes connect
// requests for them.
//
// A connecting root sends a ConnectRequest to the port's process on the
// bridge context's user channel (tag connect_request_tag, any sender: the
// bridges of every peer share that context). The listener, a p2p
// generalized request started with the first MPI_Open_port, receives it
// and queues it on its port, or answers MPI_ERR_PORT at once when the port
// is not open (never opened, or closed). MPI_Comm_accept takes the queued
// requests one by one and answers each with the tag of the bridge both
// leaders then use (connect_groups). The listener stops at MPI_Finalize
// (an attribute of MPI_COMM_SELF), answering MPI_ERR_PORT to every request
// still queued.
//
// Each port also listens on a TCP socket of its own, for processes of
// other jobs (dynamic/foreign.cpp): MPI_Comm_accept takes such a connection
// like a queued request. Closing the port closes the socket, so another
// job's connect to a closed port is refused by the kernel.
#pragma once

#include <cstdint>
#include <string>

namespace ftmpi::dynamic {

// Bridge-context user-channel tags.
constexpr int connect_request_tag = 0x2f000000;
constexpr int connect_reply_tag_base = 0x2e000000;
constexpr int reply_tag(int nonce) {
    return connect_reply_tag_base + (nonce & 0xffffff);
}
constexpr int32_t connect_magic = 0x46545043;  // "FTPC"

struct ConnectRequest {
    int32_t magic = connect_magic;
    int32_t world = -1;  // the connecting root
    int32_t port = -1;   // the port number at the acceptor
    int32_t nonce = 0;   // picks the reply's tag
};

struct ConnectReply {
    int32_t status = 0;  // MPI_SUCCESS, or why the connection is refused
    int32_t tag = 0;     // connect_groups' tag when accepted
};

// A request waiting for MPI_Comm_accept.
struct Incoming {
    int world = -1;
    int nonce = 0;
    int fd = -1;  // a process of another job, connected to the port's socket (world -1)
};

// A new port of this process: its number, and the "host:port" of its socket
// ("" when this process has no network). MPI code.
int open_port(int *number, std::string *address);
// Forgets the port; the requests waiting on it are refused. MPI_ERR_PORT
// when it is not open.
int close_port(int number);
// Waits until a request is queued on the port, or another job's process
// connects to its socket, and takes it: MPI_ERR_PORT when the port is
// closed meanwhile (or was never open).
int next_request(int number, Incoming *out);

}  // namespace ftmpi::dynamic
