// VM membership in the DRD: with vm/drd loaded, the coordinator keeps
// vm/members/<id> = (address, state, incarnation) up to date; a member killed
// with kill -9 turns "failed" there. Real daemons with every VM service.
#include "it_support.hpp"

#include <doctest/doctest.h>

using namespace harness;
using namespace harness::it;

namespace {

const ComponentName kDrd{"vm", "drd"};

struct Record {
    std::string address, state;
    std::uint64_t incarnation = 0;
};

// vm/members/ as d's DRD has it (linearizable scan); empty on error.
std::map<std::string, Record> member_records(const Daemon &d) {
    std::map<std::string, Record> out;
    auto conn = hlib::Connection::open_unix(d.unix_socket(), read_key(d.key_file()), hlib::deadline_in(3s));
    if (!conn) return out;
    hlib::Daemon client(std::move(conn.value()));
    Packer args;
    args.str("vm/members/").boolean(true);
    auto reply =
        client.call(kDrd, "scan", args.view(), HARNESS_CALL_PACKED, HARNESS_MODE_DEFAULT, hlib::deadline_in(3s));
    if (!reply) return out;
    Unpacker u(*reply);
    std::int64_t n = 0;
    if (!u.i64(n)) return out;
    for (std::int64_t i = 0; i < n; ++i) {
        std::string key;
        Bytes value;
        std::int64_t version = 0;
        if (!u.str(key) || !u.bytes(value) || !u.i64(version)) return {};
        Unpacker v(value);
        Record r;
        if (!v.str(r.address) || !v.str(r.state) || !v.u64(r.incarnation)) return {};
        out[key.substr(std::string("vm/members/").size())] = r;
    }
    return out;
}

}  // namespace

TEST_CASE("the coordinator writes vm/members/<id> into the DRD; a killed member turns failed") {
    auto args = fast_heartbeat_args();
    args.push_back("--services=" + test::kAllServices);
    Vm vm = start_vm(3, args);

    std::map<std::string, Record> records;
    auto all_alive = [&] {
        records = member_records(vm[1]);
        if (records.size() != 3) return false;
        for (auto &d : vm.daemons) {
            auto it = records.find(d->id());
            if (it == records.end() || it->second.state != "alive" || it->second.address != d->tcp().to_string())
                return false;
        }
        return true;
    };
    CHECK(test::wait_until(all_alive, 20s));
    for (const auto &[id, r] : records) CHECK(r.incarnation == 1);

    const std::string victim = vm[2].id();
    vm[2].kill_hard();
    CHECK(test::wait_until(
        [&] {
            records = member_records(vm[0]);
            return records.count(victim) && records[victim].state == "failed" && records.size() == 3;
        },
        kHeartbeatTimeout + 15s));
}
