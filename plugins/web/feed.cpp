#include "feed.hpp"

#include <harness/vmview/drd_watch.hpp>

#include <chrono>

namespace harness::web {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

bool relevant_key(const std::string &key) {
    return key.rfind("vm/", 0) == 0 || (key.rfind("ftmpi/", 0) == 0 && key.find("/cominfo/") != std::string::npos);
}

Feed::Feed(VmSource source, LogFn log) : source_(source), log_(std::move(log)) {
    thread_ = std::thread([this] {
        try {
            run();
        } catch (const std::exception &e) {  // never let the feed end the daemon
            log_(3, std::string("vm/web: the live feed stopped: ") + e.what());
        }
    });
}

Feed::~Feed() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
}

Feed::Listener::Listener(Feed &feed) : feed_(feed) {
    std::lock_guard lock(feed_.mutex_);
    ++feed_.listeners_;
    feed_.changed_.notify_all();
}

Feed::Listener::~Listener() {
    std::lock_guard lock(feed_.mutex_);
    --feed_.listeners_;
}

Feed::State Feed::next(std::uint64_t seen, std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, wait, [&] { return stop_ || state_.version != seen; });
    return state_;
}

void Feed::publish(std::string json) {
    auto text = std::make_shared<const std::string>(std::move(json));
    {
        std::lock_guard lock(mutex_);
        state_.json = std::move(text);
        ++state_.version;
    }
    changed_.notify_all();
}

bool Feed::wait_for_change(hlib::VirtualMachine &vm, std::int64_t *index) {
    const auto until = Clock::now() + kRefresh;
    while (Clock::now() < until) {
        {
            std::lock_guard lock(mutex_);
            if (stop_ || listeners_ == 0) return true;
        }
        // Short watches, so stopping the plugin never waits long.
        auto keys = vmview::wait_for_change(vm, "", index, 500ms);
        if (!keys) return false;
        for (const auto &k : *keys)
            if (relevant_key(k)) return true;
    }
    return true;
}

void Feed::run() {
    std::optional<hlib::VirtualMachine> vm;
    std::int64_t index = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return stop_ || listeners_ > 0; });
            if (stop_) return;
        }
        if (!vm) {
            auto connected = source_.connect();
            if (!connected) {
                log_(2, "vm/web: the live view cannot reach its daemon: " + connected.error().describe());
                publish(to_text(
                    {{"error", "cannot reach the daemon: " + connected.error().describe()}, {"time_ms", now_ms()}}));
                std::unique_lock lock(mutex_);
                changed_.wait_for(lock, 1s, [&] { return stop_; });
                continue;
            }
            vm.emplace(std::move(*connected));
            // The watch position now: changes from here on wake the feed.
            index = vmview::watch_position(*vm, "");
        }
        nlohmann::json state = {{"time_ms", now_ms()}};
        if (auto v = VmSource::vm_state(*vm))
            state["vm"] = std::move(*v);
        else
            state["error"] = "the VM's state: " + v.error().describe();
        if (auto j = VmSource::jobs(*vm))
            state["jobs"] = std::move(*j);
        else
            state["error"] = "the jobs: " + j.error().describe();
        publish(to_text(state));
        if (!wait_for_change(*vm, &index)) {
            // No vm/drd (or the connection broke): refresh on the clock alone.
            vm.reset();
            std::unique_lock lock(mutex_);
            changed_.wait_for(lock, kRefresh, [&] { return stop_; });
        }
    }
}

}  // namespace harness::web
