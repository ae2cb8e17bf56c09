// drd: wire-up — each rank puts its contact as the
// DRD record ftmpi/<job>/contact/<rank> (through its local daemon:
// HARNESS_HCORE / HARNESS_KEY, as every HARNESS tool) and watches the
// prefix until the contacts of the other ranks are there, or the VM says
// a missing one ended.
#include "runtime/wireup.hpp"

#include "runtime/startup_failures.hpp"

#include <harness/common/pack.hpp>
#include <harness/hlib/busy_retry.hpp>
#include <harness/hlib/hlib.hpp>

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace ftmpi::runtime {

namespace hl = harness::hlib;

namespace {

const harness::ComponentName drd{"vm", "drd"};

[[noreturn]] void fail(const std::string &what, const harness::Error &e) {
    throw std::runtime_error("drd: wire-up: " + what + ": " + e.describe());
}

// A drd call that rides out a moment without a leader (a member may fail
// during the wire-up): put is idempotent, scan and watch read.
harness::Result<harness::Bytes> call_drd(hl::Daemon &daemon, std::string_view function, const harness::Packer &args,
                                         hl::Deadline deadline) {
    return hl::call_while_busy(daemon, drd, function, args.view(), deadline);
}

}  // namespace

Contacts exchange_drd(const JobInfo &job, const std::string &contact, std::chrono::milliseconds timeout,
                      StartupFailures &notices) {
    hl::ConnectOptions options;
    options.timeout =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::min(timeout, std::chrono::milliseconds(10000)));
    auto vm = hl::VirtualMachine::connect(options.resolved());
    if (!vm) fail("cannot reach the local daemon", vm.error());
    hl::Daemon &daemon = vm->local();
    const auto deadline = hl::deadline_in(timeout);
    const std::string prefix = "ftmpi/" + job.job + "/contact/";

    harness::Packer put;
    put.str(prefix + std::to_string(job.rank));
    put.bytes({reinterpret_cast<const std::uint8_t *>(contact.data()), contact.size()});
    put.str("voters");
    auto put_reply = call_drd(daemon, "put", put, deadline);
    if (!put_reply) fail("put " + prefix + std::to_string(job.rank), put_reply.error());

    Contacts out;
    std::vector<std::string> &contacts = out.cards;
    contacts.resize(job.size);
    if (job.restarted) {
        // A replacement: every record under the prefix, as it is now.
        harness::Packer scan;
        scan.str(prefix).boolean(true);
        auto reply = call_drd(daemon, "scan", scan, deadline);
        if (!reply) fail("scan " + prefix, reply.error());
        harness::Unpacker in(*reply);
        std::int64_t n = 0;
        if (!in.i64(n)) throw std::runtime_error("drd: wire-up: malformed scan reply");
        for (std::int64_t i = 0; i < n; ++i) {
            std::string key;
            harness::Bytes value;
            std::int64_t version = 0;
            if (!in.str(key) || !in.bytes(value) || !in.i64(version))
                throw std::runtime_error("drd: wire-up: malformed scan record");
            if (key.rfind(prefix, 0) != 0) continue;
            int r = std::atoi(key.c_str() + prefix.size());
            if (r >= 0 && r < job.size && r != job.rank) contacts[r].assign(value.begin(), value.end());
        }
        return out;
    }
    // Every other rank's card (it says which driver reaches that rank), but
    // for the numbers that are no process of the job.
    int missing = job.size - 1 - static_cast<int>(std::count(job.absent.begin(), job.absent.end(), 1));
    std::int64_t after = 0;
    // A rank the VM says has ended is not waited for (its card never comes).
    auto take_ended = [&] {
        for (const auto &[r, why] : notices.all())
            if (!job.is_absent(r) && contacts[r].empty() && out.ended.emplace(r, why).second) --missing;
    };
    while (missing > 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - hl::Clock::now());
        if (left.count() <= 0)
            throw std::runtime_error("drd: wire-up timed out with " + std::to_string(missing) +
                                     " contact(s) missing under " + prefix);
        harness::Packer watch;
        watch.str(prefix).i64(after).i64(std::min<std::int64_t>(left.count(), wireup_slice.count()));
        auto reply = call_drd(daemon, "watch", watch, deadline + std::chrono::seconds(3));
        if (!reply) fail("watch " + prefix, reply.error());
        harness::Unpacker in(*reply);
        std::int64_t n = 0;
        if (!in.i64(after) || !in.i64(n)) throw std::runtime_error("drd: wire-up: malformed watch reply");
        for (std::int64_t i = 0; i < n; ++i) {
            std::int64_t index = 0, version = 0;
            std::string key;
            harness::Bytes value;
            bool deleted = false;
            if (!in.i64(index) || !in.str(key) || !in.bytes(value) || !in.i64(version) || !in.boolean(deleted))
                throw std::runtime_error("drd: wire-up: malformed watch record");
            if (deleted || key.rfind(prefix, 0) != 0) continue;
            int r = std::atoi(key.c_str() + prefix.size());
            if (r < 0 || r >= job.size || r == job.rank || job.is_absent(r) || !contacts[r].empty() ||
                out.ended.count(r))
                continue;
            contacts[r].assign(value.begin(), value.end());
            --missing;
        }
        if (n == 0 && missing > 0 && notices.look(std::chrono::milliseconds(0))) take_ended();
    }
    return out;
}

std::string reread_contact_drd(const JobInfo &job, int rank) {
    const auto deadline = hl::deadline_in(std::chrono::milliseconds(2000));
    hl::ConnectOptions options;
    options.timeout = std::chrono::milliseconds(2000);
    auto vm = hl::VirtualMachine::connect(options.resolved());
    if (!vm) fail("cannot reach the local daemon", vm.error());
    const std::string key = "ftmpi/" + job.job + "/contact/" + std::to_string(rank);
    harness::Packer get;
    get.str(key).boolean(true);  // linearizable: a record put before the fellow joined is seen
    auto reply = call_drd(vm->local(), "get", get, deadline);
    if (!reply) fail("get " + key, reply.error());
    harness::Unpacker in(*reply);
    bool found = false;
    harness::Bytes value;
    std::int64_t version = 0;
    if (!in.boolean(found) || !in.bytes(value) || !in.i64(version))
        throw std::runtime_error("drd: wire-up: malformed get reply");
    return found ? std::string(value.begin(), value.end()) : std::string();
}

}  // namespace ftmpi::runtime
