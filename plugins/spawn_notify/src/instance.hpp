// instance.hpp — the state of one loaded spawn_notify (what init returns).
#pragma once

#include "exit_publisher.hpp"
#include "process_table.hpp"

#include <harness/common/plugin.h>

#include <memory>
#include <string>
#include <vector>

namespace harness::vm::spawn {

struct Instance {
    const harness_host_api *host = nullptr;
    std::string member_id;
    std::string root;                          // the daemon's root: marks its job processes (job_cleanup.hpp)
    std::unique_ptr<ExitPublisher> publisher;  // declared before table: the table's hook uses it
    std::unique_ptr<ProcessTable> table;

    // HARNESS_HCORE, HARNESS_KEY, HARNESS_MEMBER for a child: how it reaches
    // the daemon that started it; HARNESS_SPAWN_OWNER: which daemon root
    // started it (a restarted daemon finds its dead predecessor's jobs by it).
    std::vector<std::string> daemon_environment() const;
};

}  // namespace harness::vm::spawn
