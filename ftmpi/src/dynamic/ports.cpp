// The port table and the listener (ports.hpp). The listener's advance runs
// on whichever thread progresses the engine, one at a time and without the
// engine's lock, so it may use p2p's non-blocking calls; it never blocks.
// The table's mutex is never held across a p2p call.
#include "dynamic/ports.hpp"

#include "internal/comm.hpp"
#include "internal/p2p.hpp"
#include "internal/pmpi.hpp"
#include "internal/runtime.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace ftmpi::dynamic {
namespace {

struct Refusal {
    MPI_Request request = MPI_REQUEST_NULL;
    ConnectReply body;
};

struct Port {
    std::deque<Incoming> waiting;  // requests waiting for accept
    int socket = -1;               // listening, for processes of other jobs
};

struct Listener {
    std::mutex mu;              // guards ports, next_number, refuse and started
    std::map<int, Port> ports;  // open ports
    int next_number = 0;
    std::vector<Incoming> refuse;  // requests to answer MPI_ERR_PORT
    bool started = false;
    std::atomic<bool> stopping{false};
    MPI_Request handler = MPI_REQUEST_NULL;
    // Bridge to this process itself: an any-source receive on it takes
    // whatever any peer sends on the bridge context.
    MPI_Comm comm = MPI_COMM_NULL;
    // The advance's own (one advance at a time).
    MPI_Request receive = MPI_REQUEST_NULL;
    std::vector<char> message;
    std::list<Refusal> sending;
};

Listener &the_listener() {
    static auto *l = new Listener;  // lives to the end of the process: advances may run late
    return *l;
}

// Starts receiving the next request; false when none is there.
bool take_request(Listener &l) {
    int flag = 0;
    MPI_Message m = MPI_MESSAGE_NULL;
    MPI_Status st{};
    if (PMPI_Improbe(MPI_ANY_SOURCE, connect_request_tag, l.comm, &flag, &m, &st) != MPI_SUCCESS || flag == 0)
        return false;
    int count = 0;
    PMPI_Get_count(&st, MPI_BYTE, &count);
    l.message.assign(static_cast<size_t>(count > 0 ? count : 0), 0);
    if (PMPI_Imrecv(l.message.data(), count, MPI_BYTE, &m, &l.receive) != MPI_SUCCESS) {
        l.receive = MPI_REQUEST_NULL;
        return false;
    }
    return true;
}

// A request arrived: queue it on its port, or refuse it.
void take_in(Listener &l) {
    ConnectRequest rq;
    if (l.message.size() != sizeof rq) return;  // not one of ours: nobody to answer
    std::memcpy(&rq, l.message.data(), sizeof rq);
    if (rq.magic != connect_magic || rq.world < 0) return;
    std::lock_guard lk(l.mu);
    auto it = l.ports.find(rq.port);
    if (it != l.ports.end() && !l.stopping)
        it->second.waiting.push_back({rq.world, rq.nonce});
    else
        l.refuse.push_back({rq.world, rq.nonce});
}

void send_refusals(Listener &l) {
    std::vector<Incoming> refuse;
    {
        std::lock_guard lk(l.mu);
        refuse.swap(l.refuse);
    }
    for (const Incoming &in : refuse) {
        if (in.fd >= 0) {  // another job's process: its connect sees the end of file
            ::close(in.fd);
            continue;
        }
        Refusal &r = l.sending.emplace_back();
        r.body.status = MPI_ERR_PORT;
        MPI_Comm bridge = comm::make_bridge(in.world);
        // A failed connector: nobody waits for the answer.
        if (p2p::isend(&r.body, sizeof r.body, MPI_BYTE, 0, reply_tag(in.nonce), bridge, p2p::Channel::user,
                       &r.request) != MPI_SUCCESS)
            r.request = MPI_REQUEST_NULL;
        comm::release(bridge);  // the send holds its own reference
    }
    for (auto it = l.sending.begin(); it != l.sending.end();) {
        int flag = 1;
        if (it->request != MPI_REQUEST_NULL) p2p::test_all(1, &it->request, &flag, MPI_STATUSES_IGNORE);
        it = flag != 0 ? l.sending.erase(it) : std::next(it);
    }
}

bool advance(Listener &l, MPI_Status *status) {
    const bool stopping = l.stopping.load();
    for (int n = 0; n < 16; ++n) {
        if (l.receive == MPI_REQUEST_NULL && (stopping || !take_request(l))) break;
        int flag = 0;
        const int rc = p2p::test_all(1, &l.receive, &flag, MPI_STATUSES_IGNORE);
        if (flag == 0) break;
        l.receive = MPI_REQUEST_NULL;
        if (rc == MPI_SUCCESS) take_in(l);
    }
    send_refusals(l);
    if (stopping && l.receive == MPI_REQUEST_NULL && l.sending.empty()) {
        status->MPI_ERROR = MPI_SUCCESS;
        return true;
    }
    return false;
}

// A port closes (l.mu held): its waiting requests are refused, its socket closed.
void forget(Listener &l, Port &port) {
    l.refuse.insert(l.refuse.end(), port.waiting.begin(), port.waiting.end());
    port.waiting.clear();
    if (port.socket >= 0) ::close(port.socket);
    port.socket = -1;
}

// A listening socket on this process's network address (the host of its
// TCP contact), for processes of other jobs; -1 and "" without a network.
int listen_for_other_jobs(std::string *address) {
    address->clear();
    const std::string contact = p2p::own_contact();  // "host:port incarnation round"
    const size_t colon = contact.find(':');
    if (contact.empty() || colon == std::string::npos) return -1;
    const std::string host = contact.substr(0, colon);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    if (inet_pton(AF_INET, host.c_str(), &sa.sin_addr) != 1) return -1;
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    socklen_t len = sizeof sa;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&sa), sizeof sa) != 0 || ::listen(fd, 64) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr *>(&sa), &len) != 0) {
        ::close(fd);
        return -1;
    }
    *address = host + ":" + std::to_string(ntohs(sa.sin_port));
    return fd;
}

// MPI_Finalize deletes MPI_COMM_SELF's attributes first: the listener
// stops there, while the engine still runs.
int stop_listener(MPI_Comm, int, void *, void *) noexcept {
    Listener &l = the_listener();
    {
        std::lock_guard lk(l.mu);
        for (auto &[number, port] : l.ports) forget(l, port);
        l.ports.clear();
    }
    l.stopping = true;
    if (l.handler != MPI_REQUEST_NULL) p2p::wait_all(1, &l.handler, MPI_STATUSES_IGNORE);
    l.handler = MPI_REQUEST_NULL;
    if (l.comm != MPI_COMM_NULL) comm::release(l.comm);
    l.comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

// Called with l.mu held, before the first port opens.
int start_listener(Listener &l) {
    int keyval = MPI_KEYVAL_INVALID;
    int err = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, stop_listener, &keyval, nullptr);
    if (err == MPI_SUCCESS) err = PMPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
    if (err != MPI_SUCCESS) return err;
    l.comm = comm::make_bridge(runtime::world_rank());
    l.handler = p2p::make_event_driven([&l](MPI_Status *status) { return advance(l, status); });
    if (l.handler == MPI_REQUEST_NULL) return MPI_ERR_NO_MEM;
    l.started = true;
    return MPI_SUCCESS;
}

}  // namespace

int open_port(int *number, std::string *address) {
    Listener &l = the_listener();
    std::lock_guard lk(l.mu);
    if (l.stopping) return MPI_ERR_PORT;
    if (!l.started) {
        if (int err = start_listener(l); err != MPI_SUCCESS) return err;
    }
    *number = l.next_number++;
    l.ports[*number].socket = listen_for_other_jobs(address);
    return MPI_SUCCESS;
}

int close_port(int number) {
    Listener &l = the_listener();
    std::lock_guard lk(l.mu);
    auto it = l.ports.find(number);
    if (it == l.ports.end()) return MPI_ERR_PORT;
    forget(l, it->second);
    l.ports.erase(it);
    return MPI_SUCCESS;
}

int next_request(int number, Incoming *out) {
    auto taken = std::make_shared<Incoming>();
    MPI_Request r = p2p::make_generalized([number, taken](MPI_Status *status) {
        Listener &l = the_listener();
        std::lock_guard lk(l.mu);
        auto it = l.ports.find(number);
        if (it == l.ports.end()) {
            status->MPI_ERROR = MPI_ERR_PORT;
            return true;
        }
        Port &port = it->second;
        if (port.waiting.empty() && port.socket >= 0) {
            const int fd = ::accept4(port.socket, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd >= 0) port.waiting.push_back({-1, 0, fd});
        }
        if (port.waiting.empty()) return false;
        *taken = port.waiting.front();
        port.waiting.pop_front();
        status->MPI_ERROR = MPI_SUCCESS;
        return true;
    });
    if (r == MPI_REQUEST_NULL) return MPI_ERR_NO_MEM;
    const int err = p2p::wait_all(1, &r, MPI_STATUSES_IGNORE);
    if (err == MPI_SUCCESS) *out = *taken;
    return err;
}

}  // namespace ftmpi::dynamic
