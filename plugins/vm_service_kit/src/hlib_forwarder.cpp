#include "vm_service_kit/hlib_forwarder.hpp"

namespace harness::vmsvc {

std::unique_ptr<hlib::Daemon> HlibForwarder::take(const std::string &address) {
    std::lock_guard lock(mutex_);
    auto it = idle_.find(address);
    if (it == idle_.end() || it->second.empty()) return nullptr;
    auto d = std::move(it->second.back());
    it->second.pop_back();
    return d;
}

void HlibForwarder::give_back(const std::string &address, std::unique_ptr<hlib::Daemon> d) {
    std::lock_guard lock(mutex_);
    auto &v = idle_[address];
    if (v.size() < kMaxIdlePerAddress) v.push_back(std::move(d));
}

Result<Bytes> HlibForwarder::call(const ForwardTarget &target, std::string_view function,
                                  std::span<const std::uint8_t> args, Deadline deadline) {
    auto endpoint = parse_endpoint(target.address);
    if (!endpoint)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT,
                          "member " + target.member_id + " has no usable address '" + target.address + "'");
    auto daemon = take(target.address);
    if (!daemon) {
        auto conn = hlib::Connection::open_tcp(*endpoint, key_, deadline);
        if (!conn) return conn.error();
        daemon = std::make_unique<hlib::Daemon>(std::move(*conn));
    }
    auto r = daemon->call(component_, function, args, HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, deadline);
    // A failed call that left the stream in step (the function's own error)
    // keeps the connection; a transport error or timeout closes it.
    bool reusable = daemon->connection().is_open() &&
        (r.ok() ||
         (r.error().status != HARNESS_ERR_TIMEOUT && r.error().status != HARNESS_ERR_UNREACHABLE &&
          r.error().status != HARNESS_ERR_PROTOCOL));
    if (reusable) give_back(target.address, std::move(daemon));
    return r;
}

}  // namespace harness::vmsvc
