// The built vm/events and vm/naming shared objects, loaded through the
// common loader and called the way a daemon calls them, with a fake host
// whose call_local("vm","drd",…) is an in-memory DRD speaking the contract's
// encoding. Shows: the C surface round-trips, every malformed argument
// buffer gets a clear INVALID_ARGUMENT (never a crash), and a host without
// ABI 1.1 is refused at init.
#include "vm_service_kit/memory_record_store.hpp"

#include <harness/common/crypto.hpp>
#include <harness/common/loader.hpp>
#include <harness/common/pack.hpp>

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <unistd.h>

using namespace harness;
using namespace harness::vmsvc;

namespace {

std::unique_ptr<LoadedLibrary> open_component(const std::string &component) {
    Resolver resolver(std::filesystem::path(HARNESS_PLUGINS_DIR).parent_path());
    auto where = resolver.resolve({"vm", component});
    REQUIRE_MESSAGE(where.ok(), where.error().describe());
    auto lib = LoadedLibrary::open(where.value());
    REQUIRE_MESSAGE(lib.ok(), lib.error().describe());
    return std::move(lib.value());
}

// The DRD functions of the contract over a MemoryRecordStore.
int fake_drd(MemoryRecordStore &store, const std::string &function, std::span<const std::uint8_t> args, Packer &out) {
    Unpacker u(args);
    std::string key, replication;
    bool flag = false;
    if (function == "get" && u.str(key) && u.boolean(flag)) {
        auto r = store.get(key, flag);
        if (!r) return r.error().status;
        out.boolean(r->has_value())
            .bytes(r->has_value() ? (*r)->value : Bytes{})
            .i64(r->has_value() ? (*r)->version : 0);
        return HARNESS_OK;
    }
    std::int64_t expected = 0;
    Bytes value;
    if (function == "cas" && u.str(key) && u.i64(expected) && u.bytes(value) && u.str(replication)) {
        auto r = store.cas(key, expected, value);
        if (!r) return r.error().status;
        out.boolean(r->ok).i64(r->current_version);
        return HARNESS_OK;
    }
    if (function == "del" && u.str(key)) {
        auto r = store.del(key);
        if (!r) return r.error().status;
        out.boolean(*r);
        return HARNESS_OK;
    }
    if (function == "scan" && u.str(key) && u.boolean(flag)) {
        auto r = store.scan(key, flag);
        if (!r) return r.error().status;
        out.i64(static_cast<std::int64_t>(r->size()));
        for (auto &rec : *r) out.str(rec.key).bytes(rec.value).i64(rec.version);
        return HARNESS_OK;
    }
    return HARNESS_ERR_INVALID_ARGUMENT;
}

struct FakeHost {
    std::string id = "m1";
    std::string root;
    std::string key_path;
    MemoryRecordStore drd;
    harness_host_api api{};

    FakeHost() {
        char dir[] = "/tmp/services-abi-XXXXXX";
        REQUIRE(::mkdtemp(dir));
        root = dir;
        key_path = root + "/vm.key";
        REQUIRE(load_or_create_key(key_path).ok());
        api.struct_size = sizeof api;
        api.host = this;
        api.log = [](void *, int, const char *) {};
        api.member_id = [](void *h) -> const char * { return static_cast<FakeHost *>(h)->id.c_str(); };
        api.subscribe_members = [](void *, harness_member_hook, void *) -> int { return HARNESS_OK; };
        api.list_members = [](void *h, harness_member_visitor visit, void *user) -> int {
            auto *self = static_cast<FakeHost *>(h);
            harness_member_info m{sizeof(harness_member_info), self->id.c_str(), "127.0.0.1:1", HARNESS_MEMBER_ALIVE,
                                  1};
            visit(user, &m);
            return HARNESS_OK;
        };
        api.root_dir = [](void *h) -> const char * { return static_cast<FakeHost *>(h)->root.c_str(); };
        api.key_file = [](void *h) -> const char * { return static_cast<FakeHost *>(h)->key_path.c_str(); };
        api.call_local = [](void *h, const char *pkg, const char *comp, const char *fn, const void *args, size_t len,
                            harness_buf *out, char *err, size_t errlen) -> int {
            auto *self = static_cast<FakeHost *>(h);
            if (std::string(pkg) != "vm" || std::string(comp) != "drd") {
                std::snprintf(err, errlen, "no such component");
                return HARNESS_ERR_NOT_FOUND;
            }
            Packer reply;
            int status = fake_drd(self->drd, fn, {static_cast<const std::uint8_t *>(args), len}, reply);
            if (status == HARNESS_OK)
                harness_buf_append(out, reply.view().data(), reply.size());
            else
                std::snprintf(err, errlen, "fake drd refused %s", fn);
            return status;
        };
    }
    ~FakeHost() { std::filesystem::remove_all(root); }
};

struct Plugin {
    std::unique_ptr<LoadedLibrary> lib;
    void *state = nullptr;
    Plugin(const std::string &component, const harness_host_api *host) {
        lib = open_component(component);
        char err[256] = {0};
        int status = lib->descriptor().init(host, &state, err, sizeof err);
        REQUIRE_MESSAGE(status == HARNESS_OK, err);
    }
    ~Plugin() { lib->descriptor().fini(state); }

    // Calls a PACKED function; returns status, reply and error text.
    struct Reply {
        int status;
        Bytes body;
        std::string error;
    };
    Reply call(const std::string &function, std::span<const std::uint8_t> args, const harness_host_api *host) {
        const harness_function *f = lib->find_function(function);
        REQUIRE(f);
        harness_buf out{}, error{};
        harness_call_ctx ctx{sizeof(harness_call_ctx), state, host, &error};
        harness_reader r = harness_reader_make(args.data(), args.size());
        int status = f->packed(&ctx, &r, &out);
        Reply reply{status, Bytes(out.data, out.data + out.len),
                    std::string(error.data ? reinterpret_cast<char *>(error.data) : "", error.len)};
        harness_buf_free(&out);
        harness_buf_free(&error);
        return reply;
    }
};

}  // namespace

TEST_CASE("vm/events through its C surface: publish, fetch, where") {
    FakeHost host;
    Plugin events("events", &host.api);
    CHECK(events.lib->descriptor().instance_policy == HARNESS_PER_DAEMON);
    for (int i = 1; i <= 3; ++i) {
        Packer args;
        args.str("job/4").bytes(Bytes{static_cast<std::uint8_t>(i)});
        auto reply = events.call("publish", args.view(), &host.api);
        REQUIRE_MESSAGE(reply.status == HARNESS_OK, reply.error);
        Unpacker u(reply.body);
        std::int64_t seq = 0;
        REQUIRE(u.i64(seq));
        CHECK(seq == i);
    }
    Packer fetch_args;
    fetch_args.str("job/4").i64(1).i64(0).i64(10);
    auto fetched = events.call("fetch", fetch_args.view(), &host.api);
    REQUIRE_MESSAGE(fetched.status == HARNESS_OK, fetched.error);
    Unpacker u(fetched.body);
    std::int64_t n = 0, seq = 0;
    Bytes payload;
    REQUIRE(u.i64(n));
    CHECK(n == 2);
    REQUIRE((u.i64(seq) && u.bytes(payload)));
    CHECK(seq == 2);
    CHECK(payload == Bytes{2});

    auto where = events.call("where", {}, &host.api);
    REQUIRE(where.status == HARNESS_OK);
    Unpacker w(where.body);
    std::string id;
    REQUIRE(w.str(id));
    CHECK(id == "m1");
    auto record = host.drd.get("vm/services/events", true);
    REQUIRE((record.ok() && record->has_value()));
    CHECK(string_of((*record)->value) == "m1");
}

TEST_CASE("vm/naming through its C surface: allocate and where") {
    FakeHost host;
    Plugin naming("naming", &host.api);
    std::int64_t last = 0;
    for (int i = 0; i < 5; ++i) {
        Packer args;
        args.str("context").i64(2);
        auto reply = naming.call("allocate", args.view(), &host.api);
        REQUIRE_MESSAGE(reply.status == HARNESS_OK, reply.error);
        Unpacker u(reply.body);
        std::int64_t first = 0;
        REQUIRE(u.i64(first));
        CHECK(first > last);
        last = first + 1;
    }
    CHECK(last == 10);
}

TEST_CASE("malformed argument buffers get INVALID_ARGUMENT with a message, for every function") {
    FakeHost host;
    Plugin events("events", &host.api);
    Plugin naming("naming", &host.api);
    auto bad = [&](Plugin &p, const std::string &function, const Packer &args, const std::string &expect) {
        auto reply = p.call(function, args.view(), &host.api);
        CHECK_MESSAGE(reply.status == HARNESS_ERR_INVALID_ARGUMENT, function << ": " << reply.error);
        CHECK_MESSAGE(reply.error.find(expect) != std::string::npos, function << ": " << reply.error);
    };
    Packer empty, wrong_type, truncated, extra, bad_topic, bad_space, zero;
    wrong_type.i64(5).str("x");
    extra.str("t").bytes(Bytes{1}).i64(99);
    bad_topic.str("a#b").bytes(Bytes{1});
    bad_space.str("").i64(1);
    zero.str("job").i64(0);
    bad(events, "publish", empty, "expects");
    bad(events, "publish", wrong_type, "expects");
    bad(events, "publish", extra, "expects");
    bad(events, "publish", bad_topic, "topic");
    bad(events, "fetch", empty, "expects");
    bad(events, "fetch", wrong_type, "expects");
    bad(events, "publish_active", bad_topic, "expects");
    bad(events, "fetch_active", wrong_type, "expects");
    bad(events, "where", wrong_type, "no arguments");
    bad(naming, "allocate", empty, "expects");
    bad(naming, "allocate", wrong_type, "expects");
    bad(naming, "allocate", bad_space, "space");
    bad(naming, "allocate", zero, "count");
    bad(naming, "allocate_active", wrong_type, "expects");
    // A buffer cut in the middle of an item.
    Packer whole;
    whole.str("topic").bytes(Bytes(10, 7));
    auto cut = whole.view().subspan(0, whole.size() - 3);
    auto reply = events.call("publish", cut, &host.api);
    CHECK(reply.status == HARNESS_ERR_INVALID_ARGUMENT);
}

TEST_CASE("a host without ABI 1.1 is refused at init with a clear message") {
    FakeHost host;
    harness_host_api old = host.api;
    old.struct_size = offsetof(harness_host_api, list_members);  // an ABI 1.0 daemon
    for (const char *component : {"events", "naming"}) {
        auto lib = open_component(component);
        void *state = nullptr;
        char err[256] = {0};
        int status = lib->descriptor().init(&old, &state, err, sizeof err);
        CHECK(status == HARNESS_ERR_NOT_SUPPORTED);
        CHECK(std::string(err).find("1.1") != std::string::npos);
    }
}
