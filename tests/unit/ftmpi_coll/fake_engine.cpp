// The simulated engine of fake_engine.hpp: eager messages between threads,
// dead ranks, deadlines on every wait, and a barrier-like agreement.
#include "fake_engine.hpp"

#include "internal/datatype.hpp"
#include "internal/ft.hpp"
#include "internal/p2p.hpp"
#include "mpi-ext.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

using Clock = std::chrono::steady_clock;

// The request object behind MPI_Request (libftmpi's own is not linked here).
struct ftmpi_request_s {
    enum class Kind { send, recv, generalized } kind = Kind::send;
    bool done = false;
    MPI_Status status{};
    // A receive's buffer and what it matches.
    void *buf = nullptr;
    int count = 0;
    MPI_Datatype type = nullptr;
    int source = 0;
    int tag = 0;
    std::function<bool(MPI_Status *)> advance;
};

namespace fake {
namespace {

struct Message {
    int source;
    int tag;
    std::vector<char> bytes;
};

struct Net {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<bool> dead;
    std::vector<std::deque<Message>> unexpected;         // per destination
    std::vector<std::vector<ftmpi_request_s *>> posted;  // per destination, in posting order
    std::map<std::pair<int, int>, uint32_t> votes;       // (agreement number, rank) -> flag
    std::vector<int> agreements;                         // per rank: agreements started
    Clock::time_point deadline;
};

Net *net = nullptr;

int me(MPI_Comm comm) {
    return comm->rank;
}

bool matches(const ftmpi_request_s &r, int source, int tag) {
    return (r.source == MPI_ANY_SOURCE || r.source == source) && (r.tag == MPI_ANY_TAG || r.tag == tag);
}

void complete(ftmpi_request_s &r, int error) {
    r.done = true;
    r.status.MPI_ERROR = error;
}

// Lands message m in receive r (the lock held).
void land(ftmpi_request_s &r, const Message &m) {
    const size_t capacity = r.count > 0 ? static_cast<size_t>(r.count) * ftmpi::dt::size(r.type) : 0;
    const size_t take = std::min(capacity, m.bytes.size());
    if (take > 0) ftmpi::dt::unpack(m.bytes.data(), take, 0, r.buf, r.count, r.type);
    r.status.MPI_SOURCE = m.source;
    r.status.MPI_TAG = m.tag;
    r.status.ftmpi_count = take;
    complete(r, m.bytes.size() > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
}

bool all_voted(int number) {
    for (int r = 0; r < static_cast<int>(net->dead.size()); ++r)
        if (!net->dead[static_cast<size_t>(r)] && net->votes.find({number, r}) == net->votes.end()) return false;
    return true;
}

void agreed(int number, ftmpi::ft::Agreement &a) {
    a.flag = ~0u;
    for (const auto &[key, flag] : net->votes)
        if (key.first == number) a.flag &= flag;
    a.failed.clear();
    for (int r = 0; r < static_cast<int>(net->dead.size()); ++r)
        if (net->dead[static_cast<size_t>(r)]) a.failed.push_back(r);
    a.unacked = false;
}

// Fills statuses, frees the requests; MPI_Waitall's return convention.
int finish_all(int n, MPI_Request *requests, MPI_Status *statuses) {
    int first_error = MPI_SUCCESS;
    for (int i = 0; i < n; ++i) {
        MPI_Status st{};
        st.MPI_SOURCE = MPI_ANY_SOURCE;
        st.MPI_TAG = MPI_ANY_TAG;
        if (requests[i] != MPI_REQUEST_NULL) {
            st = requests[i]->status;
            delete requests[i];
            requests[i] = MPI_REQUEST_NULL;
        }
        if (st.MPI_ERROR != MPI_SUCCESS && first_error == MPI_SUCCESS) first_error = st.MPI_ERROR;
        if (statuses != MPI_STATUSES_IGNORE) statuses[i] = st;
    }
    if (first_error == MPI_SUCCESS) return MPI_SUCCESS;
    return statuses != MPI_STATUSES_IGNORE ? MPI_ERR_IN_STATUS : first_error;
}

// Every request done? Generalized ones are advanced (without the lock,
// as the real engine calls them).
bool poll_all(int n, MPI_Request *requests) {
    bool all = true;
    for (int i = 0; i < n; ++i) {
        ftmpi_request_s *r = requests[i];
        if (r == MPI_REQUEST_NULL || r->done) continue;
        if (r->kind == ftmpi_request_s::Kind::generalized) {
            if (r->advance(&r->status))
                r->done = true;
            else
                all = false;
        } else {
            std::lock_guard lock(net->mutex);
            all = all && r->done;
        }
    }
    return all;
}

}  // namespace

World::World(int size, std::vector<int> dead) : size_(size), dead_(std::move(dead)) {
    if (net != nullptr) throw std::logic_error("one fake::World at a time");
    net = new Net;
    net->dead.assign(static_cast<size_t>(size), false);
    for (int d : dead_) net->dead[static_cast<size_t>(d)] = true;
    net->unexpected.resize(static_cast<size_t>(size));
    net->posted.resize(static_cast<size_t>(size));
    net->agreements.assign(static_cast<size_t>(size), 0);
    for (int r = 0; r < size; ++r) {
        auto group = std::make_unique<ftmpi_group_s>();
        for (int w = 0; w < size; ++w) group->world.push_back(w);
        group->rank = r;
        auto comm = std::make_unique<ftmpi_comm_s>();
        // A context of its own per simulated rank, never used before: the
        // collective tag counter (tags.cpp) is per context and lives for the
        // whole process, and every rank must draw the same tags.
        static uint32_t next_context = 1000;
        comm->context = next_context;
        next_context += 16;
        comm->group = group.get();
        comm->rank = r;
        comm->size = size;
        groups_.push_back(std::move(group));
        comms_.push_back(std::move(comm));
    }
}

World::~World() {
    for (auto &queue : net->posted)
        for (ftmpi_request_s *r : queue) delete r;
    delete net;
    net = nullptr;
}

bool World::dead(int rank) const {
    return net->dead[static_cast<size_t>(rank)];
}

void World::run(const std::function<void(MPI_Comm)> &body) {
    net->deadline = Clock::now() + std::chrono::seconds(20);
    std::vector<std::thread> threads;
    for (int r = 0; r < size_; ++r)
        if (!dead(r)) threads.emplace_back([&body, this, r] { body(comms_[static_cast<size_t>(r)].get()); });
    for (auto &t : threads) t.join();
}

}  // namespace fake

namespace ftmpi::p2p {
using fake::net;

int isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, Channel, MPI_Request *out) {
    auto *r = new ftmpi_request_s;
    *out = r;
    std::lock_guard lock(net->mutex);
    if (net->dead[static_cast<size_t>(dest)]) {
        fake::complete(*r, MPIX_ERR_PROC_FAILED);
        return MPI_SUCCESS;  // a non-blocking operation reports a failure at completion
    }
    fake::Message m{fake::me(comm), tag,
                    std::vector<char>(count > 0 ? static_cast<size_t>(count) * dt::size(type) : 0)};
    if (!m.bytes.empty()) dt::pack(buf, count, type, 0, m.bytes.data(), m.bytes.size());
    auto &posted = net->posted[static_cast<size_t>(dest)];
    auto it = std::find_if(posted.begin(), posted.end(),
                           [&](ftmpi_request_s *p) { return fake::matches(*p, m.source, tag); });
    if (it != posted.end()) {
        fake::land(**it, m);
        posted.erase(it);
    } else {
        net->unexpected[static_cast<size_t>(dest)].push_back(std::move(m));
    }
    fake::complete(*r, MPI_SUCCESS);
    net->changed.notify_all();
    return MPI_SUCCESS;
}

int irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, Channel, MPI_Request *out) {
    auto *r = new ftmpi_request_s;
    r->kind = ftmpi_request_s::Kind::recv;
    r->buf = buf;
    r->count = count;
    r->type = type;
    r->source = source;
    r->tag = tag;
    *out = r;
    std::lock_guard lock(net->mutex);
    auto &queue = net->unexpected[static_cast<size_t>(fake::me(comm))];
    auto it = std::find_if(queue.begin(), queue.end(),
                           [&](const fake::Message &m) { return fake::matches(*r, m.source, m.tag); });
    if (it != queue.end()) {
        fake::land(*r, *it);
        queue.erase(it);
    } else if (source != MPI_ANY_SOURCE && net->dead[static_cast<size_t>(source)]) {
        fake::complete(*r, MPIX_ERR_PROC_FAILED);
    } else {
        net->posted[static_cast<size_t>(fake::me(comm))].push_back(r);
    }
    return MPI_SUCCESS;
}

int wait_all(int n, MPI_Request *requests, MPI_Status *statuses) {
    for (;;) {
        if (fake::poll_all(n, requests)) return fake::finish_all(n, requests, statuses);
        std::unique_lock lock(net->mutex);
        if (Clock::now() >= net->deadline) return fake::kHung;
        net->changed.wait_until(lock, std::min(net->deadline, Clock::now() + std::chrono::milliseconds(5)));
    }
}

int test_all(int n, MPI_Request *requests, int *flag, MPI_Status *statuses) {
    *flag = fake::poll_all(n, requests) ? 1 : 0;
    return *flag ? fake::finish_all(n, requests, statuses) : MPI_SUCCESS;
}

MPI_Request make_generalized(std::function<bool(MPI_Status *)> advance) {
    auto *r = new ftmpi_request_s;
    r->kind = ftmpi_request_s::Kind::generalized;
    r->advance = std::move(advance);
    return r;
}
}  // namespace ftmpi::p2p

namespace ftmpi::comm {
int world_rank_of(MPI_Comm comm, int rank) {
    return rank >= 0 && rank < comm->size ? comm->group->world[static_cast<size_t>(rank)] : -1;
}
}  // namespace ftmpi::comm

namespace ftmpi::ft {
using fake::net;

bool member_failed(MPI_Comm, int world) {
    std::lock_guard lock(net->mutex);
    return net->dead[static_cast<size_t>(world)];
}

// The simulated communicators are in CONT message mode: a degraded round
// still receives.
bool blocks_user_ops(MPI_Comm) {
    return false;
}

// A stand-in agreement: the AND over every live rank's flag, once all voted.
int agree(MPI_Comm comm, Agreement &a) {
    std::unique_lock lock(net->mutex);
    const int number = net->agreements[static_cast<size_t>(fake::me(comm))]++;
    net->votes[{number, fake::me(comm)}] = a.flag;
    net->changed.notify_all();
    if (!net->changed.wait_until(lock, net->deadline, [&] { return fake::all_voted(number); })) return fake::kHung;
    fake::agreed(number, a);
    return MPI_SUCCESS;
}

int iagree(MPI_Comm comm, Agreement &a, MPI_Request *request) {
    int number;
    {
        std::lock_guard lock(net->mutex);
        number = net->agreements[static_cast<size_t>(fake::me(comm))]++;
        net->votes[{number, fake::me(comm)}] = a.flag;
        net->changed.notify_all();
    }
    *request = p2p::make_generalized([number, &a](MPI_Status *status) {
        std::lock_guard lock(net->mutex);
        if (!fake::all_voted(number)) return false;
        fake::agreed(number, a);
        status->MPI_ERROR = MPI_SUCCESS;
        return true;
    });
    return MPI_SUCCESS;
}
}  // namespace ftmpi::ft
