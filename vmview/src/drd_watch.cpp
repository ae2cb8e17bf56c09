#include <harness/vmview/drd_watch.hpp>

#include <harness/common/pack.hpp>
#include <harness/hlib/busy_retry.hpp>

namespace harness::vmview {

Result<std::vector<std::string>> wait_for_change(hlib::VirtualMachine &vm, const std::string &prefix,
                                                 std::int64_t *index, std::chrono::milliseconds wait) {
    Packer args;
    args.str(prefix).i64(*index).i64(wait.count());
    auto reply = hlib::call_while_busy(vm.local(), {"vm", "drd"}, "watch", args.view(),
                                       hlib::deadline_in(wait + std::chrono::seconds(5)));
    if (!reply) return reply.error();
    // i64 next_index, i64 n, then n × (i64 index, str key, bytes value, i64 version, bool deleted).
    Unpacker u(*reply);
    std::int64_t next = 0, n = 0;
    if (!u.i64(next) || !u.i64(n) || n < 0) return make_error(HARNESS_ERR_PROTOCOL, "malformed drd watch reply");
    std::vector<std::string> keys;
    for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t at = 0, version = 0;
        std::string key;
        Bytes value;
        bool deleted = false;
        if (!u.i64(at) || !u.str(key) || !u.bytes(value) || !u.i64(version) || !u.boolean(deleted))
            return make_error(HARNESS_ERR_PROTOCOL, "malformed drd watch reply");
        keys.push_back(std::move(key));
    }
    *index = next;
    return keys;
}

std::int64_t watch_position(hlib::VirtualMachine &vm, const std::string &prefix, int max_batches) {
    std::int64_t index = 0;
    for (int i = 0; i < max_batches; ++i) {
        auto keys = wait_for_change(vm, prefix, &index, std::chrono::milliseconds(0));
        if (!keys || keys->empty()) break;
    }
    return index;
}

}  // namespace harness::vmview
