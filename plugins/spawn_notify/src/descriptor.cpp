// The vm/spawn_notify descriptor: the one exported symbol, init and fini.
#include "functions.hpp"
#include "instance.hpp"
#include "job_cleanup.hpp"

#include <harness/common/plugin.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace harness::vm::spawn {

namespace {

int init(const harness_host_api *host, void **state, char *err, std::size_t errlen) noexcept {
    return guarded_init(
        err, errlen, "spawn_notify",
        [&] {
            auto self = std::make_unique<Instance>();
            self->host = host;
            if (HARNESS_HOST_HAS(host, member_id)) self->member_id = host->member_id(host->host);
            if (HARNESS_HOST_HAS(host, root_dir))
                if (const char *root = host->root_dir(host->host)) self->root = root;
            // Only one daemon runs on a root: job processes marked with ours are
            // what a predecessor that died (kill -9) left behind.
            Leftovers left = kill_leftovers(self->root);
            if ((left.processes || left.files) && host && host->log)
                host->log(host->host, 1,
                          ("spawn_notify: killed " + std::to_string(left.processes) + " process(es) and removed " +
                           std::to_string(left.files) + " /dev/shm file(s) of jobs a previous daemon on " + self->root +
                           " left behind")
                              .c_str());
            self->publisher = std::make_unique<ExitPublisher>(host, self->member_id);
            ExitPublisher *publisher = self->publisher.get();
            self->table = std::make_unique<ProcessTable>(
                Limits::from_environment(), [publisher](const ExitReport &e) { publisher->enqueue(e); },
                rank_files_ledger(self->root));
            *state = self.release();
            return HARNESS_OK;
        },
        HARNESS_ERR_LOAD_FAILED);
}

void fini(void *state) noexcept {
    auto *self = static_cast<Instance *>(state);
    if (!self) return;
    try {
        // The publisher first: the kills below are then logged, not published
        // (see ExitPublisher::stop).
        self->publisher->stop();
        std::size_t killed = self->table->running();
        self->table->shutdown();
        if (killed && self->host && self->host->log)
            self->host->log(
                self->host->host, 1,
                ("spawn_notify: stopped; killed and reaped " + std::to_string(killed) + " process(es)").c_str());
    } catch (...) {}
    delete self;
}

constexpr harness_function kFunctions[] = {
    packed_function("spawn", &fn_spawn, HARNESS_MODE_INLINE),
    packed_function("signal", &fn_signal, HARNESS_MODE_INLINE),
    packed_function("status", &fn_status, HARNESS_MODE_INLINE),
    // Long polls: never on the daemon's I/O thread.
    packed_function("wait", &fn_wait, HARNESS_MODE_THREAD),
    packed_function("output", &fn_output, HARNESS_MODE_THREAD),
    packed_function("stdin", &fn_stdin, HARNESS_MODE_THREAD),
};

const harness_plugin_descriptor kDescriptor = plugin_descriptor(
    {.package = "vm", .component = "spawn_notify", .version = "1.0.0", .init = &init, .fini = &fini}, kFunctions);

}  // namespace

std::vector<std::string> Instance::daemon_environment() const {
    std::vector<std::string> env;
    if (!host) return env;
    if (HARNESS_HOST_HAS(host, list_members)) {
        std::string self_address;
        host->list_members(
            host->host,
            [](void *user, const harness_member_info *m) {
                if (m->is_self && m->address) *static_cast<std::string *>(user) = m->address;
            },
            &self_address);
        if (!self_address.empty()) env.push_back("HARNESS_HCORE=" + self_address);
    }
    if (HARNESS_HOST_HAS(host, key_file)) {
        const char *key = host->key_file(host->host);
        if (key && *key) env.push_back(std::string("HARNESS_KEY=") + key);
    }
    if (!member_id.empty()) env.push_back("HARNESS_MEMBER=" + member_id);
    if (!root.empty()) env.push_back(std::string(kOwnerEnv) + "=" + root);
    return env;
}

}  // namespace harness::vm::spawn

HARNESS_PLUGIN_EXPORT(harness::vm::spawn::kDescriptor)
