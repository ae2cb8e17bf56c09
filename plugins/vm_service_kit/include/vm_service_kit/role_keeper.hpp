// role_keeper.hpp — a service instance's background thread for its role.
//
// At start it resolves the role (claiming it if nobody holds it, so
// vm/services/<name> names an active instance before the first call; the
// DRD may still be forming, so it retries). On each membership change it
// runs the service's handler, or by default re-resolves the role — which is
// how a survivor takes over when the active host is declared failed, even
// when nobody is calling. The core's hook only queues; nothing here runs on
// the daemon's I/O thread.
#pragma once

#include "active_role.hpp"

#include <deque>
#include <functional>
#include <thread>

namespace harness::vmsvc {

class RoleKeeper {
public:
    using Handler = std::function<void(const std::string &member_id, bool alive)>;

    RoleKeeper(ActiveRole &role, std::chrono::milliseconds deadline, Handler handler = {});
    ~RoleKeeper();  // stop()

    void start();
    void stop();
    void member_changed(const std::string &member_id, bool alive);

    // Re-resolves until it succeeds, a non-failover error, stop, or deadline.
    static Result<RoleView> settle(ActiveRole &role, Clock::time_point deadline);

private:
    void loop();

    ActiveRole &role_;
    std::chrono::milliseconds deadline_;
    Handler handler_;
    std::mutex mutex_;
    std::condition_variable work_;
    std::deque<std::pair<std::string, bool>> changes_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace harness::vmsvc
