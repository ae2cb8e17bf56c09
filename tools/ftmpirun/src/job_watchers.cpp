#include "job_watchers.hpp"

#include "vm_link.hpp"

#include <set>

namespace harness::ftmpirun {

namespace {
using namespace std::chrono_literals;
// How often the VM's member list is read; a daemon's failure reaches the job
// this much after the VM declares it, at most.
constexpr std::chrono::milliseconds kMemberPoll{300};
// The job topic's long poll: also how long the reader takes to stop at the end.
constexpr std::chrono::milliseconds kTopicPoll{1000};
}  // namespace

void watch_members(const JobSpec &spec, Inbox &inbox, StopFlag &stop) {
    VmLink link(spec.vm, spec.key);
    std::set<std::string> reported;
    while (!stop.wait_for(kMemberPoll)) {
        auto members = link.members();
        if (!members) continue;  // every daemon we know is silent: the followers see it too
        for (const auto &m : *members)
            if (!m.alive && reported.insert(m.id).second) {
                Event e{Event::Kind::member_failed};
                e.member = m.id;
                e.member_left = m.left;
                inbox.post(std::move(e));
            }
    }
}

void read_job_topic(const JobSpec &spec, Inbox &inbox, Printer &printer, StopFlag &stop) {
    VmLink link(spec.vm, spec.key);
    const std::string topic = "job/" + std::to_string(spec.job_id);
    std::int64_t after = 0;
    while (!stop.stopped()) {
        auto got = link.fetch(topic, after, kTopicPoll);
        if (!got) {
            if (got.error().status == HARNESS_ERR_NOT_FOUND) {
                // Without failures to act on, only MPI_Comm_spawn needs it
                // (and says so itself when it is called).
                if (spec.ft.comm_mode != CommMode::abort)
                    printer.note("vm/events is not running in this VM (" + got.error().describe() +
                                 "): ranks cannot ask for fences, replacements or new processes");
                return;
            }
            if (stop.wait_for(200ms)) return;
            continue;
        }
        for (auto &e : *got) {
            after = std::max(after, e.seq);
            auto request = parse_job_event(e.payload);
            if (!request.malformed.empty())
                printer.note("ignoring a malformed " + request.malformed + " event (seq " + std::to_string(e.seq) +
                             ") on " + topic);
            if (request.fence) inbox.post({Event::Kind::fence, 0, {}, 0, {}, *request.fence, {}});
            if (request.respawn) inbox.post({Event::Kind::respawn, 0, {}, 0, {}, {}, *request.respawn});
            if (request.spawn) {
                Event spawn{Event::Kind::spawn};
                spawn.spawn = std::move(*request.spawn);
                inbox.post(std::move(spawn));
            }
        }
    }
}

}  // namespace harness::ftmpirun
