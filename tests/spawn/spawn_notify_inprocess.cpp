// vm/spawn_notify loaded into this process under a fake host (no daemon):
// the C surface end to end — spawn, output, wait, status, stdin, signal —
// proc_exit handed to the host's call_local in the contract's format,
// malformed argument buffers for every function, and fini killing and
// reaping what still runs. Small and daemon-free, so it also runs under the
// sanitizers cheaply.
#include <harness/common/pack.hpp>
#include <harness/common/plugin.h>

#include <doctest/doctest.h>

#include <condition_variable>
#include <csignal>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace harness;
using namespace std::chrono_literals;

namespace {

// What the plugin sees as its daemon.
struct FakeHost {
    std::mutex mutex;
    std::vector<std::pair<std::string, Bytes>> published;  // topic, payload
    int logged_warnings = 0;
};

// Polls predicate every 5 ms until it holds or timeout passes.
bool wait_until(const std::function<bool()> &predicate, std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (predicate()) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(5ms);
    }
}

FakeHost *fake(void *host) {
    return static_cast<FakeHost *>(host);
}

harness_host_api make_host(FakeHost &h) {
    harness_host_api api{};
    api.struct_size = sizeof api;
    api.host = &h;
    api.log = [](void *host, int level, const char *) {
        std::lock_guard lock(fake(host)->mutex);
        if (level >= 2) ++fake(host)->logged_warnings;
    };
    api.member_id = [](void *) { return "m-test"; };
    api.list_members = [](void *, harness_member_visitor visit, void *user) {
        harness_member_info self{sizeof(harness_member_info), "m-test", "127.0.0.1:7999", HARNESS_MEMBER_ALIVE, 1};
        visit(user, &self);
        return static_cast<int>(HARNESS_OK);
    };
    api.root_dir = [](void *) { return "/nonexistent-root"; };
    api.key_file = [](void *) { return "/nonexistent-root/vm.key"; };
    api.call_local = [](void *host, const char *package, const char *component, const char *function, const void *args,
                        std::size_t args_len, harness_buf *out, char *err, std::size_t errlen) {
        if (std::strcmp(package, "vm") != 0 || std::strcmp(component, "events") != 0 ||
            std::strcmp(function, "publish") != 0) {
            std::snprintf(err, errlen, "no such component");
            return static_cast<int>(HARNESS_ERR_NOT_FOUND);
        }
        Unpacker u({static_cast<const std::uint8_t *>(args), args_len});
        std::string topic;
        Bytes payload;
        if (!u.str(topic) || !u.bytes(payload) || !u.done()) return static_cast<int>(HARNESS_ERR_INVALID_ARGUMENT);
        std::lock_guard lock(fake(host)->mutex);
        fake(host)->published.emplace_back(topic, payload);
        harness_pack_i64(out, static_cast<std::int64_t>(fake(host)->published.size()));
        return static_cast<int>(HARNESS_OK);
    };
    return api;
}

// The plugin, loaded and initialized; fini and dlclose on destruction.
class Loaded {
public:
    Loaded() : api_(make_host(host_)) {
        handle_ = ::dlopen(SPAWN_NOTIFY_SO, RTLD_NOW | RTLD_LOCAL);
        REQUIRE_MESSAGE(handle_ != nullptr, ::dlerror());
        auto entry = reinterpret_cast<harness_plugin_entry_fn>(::dlsym(handle_, HARNESS_PLUGIN_ENTRY));
        REQUIRE(static_cast<bool>(entry));
        d_ = entry();
        REQUIRE(d_->abi_major == HARNESS_PLUGIN_ABI_MAJOR);
        char err[256] = "";
        REQUIRE_MESSAGE(d_->init(&api_, &state_, err, sizeof err) == HARNESS_OK, err);
    }
    ~Loaded() {
        fini();
        ::dlclose(handle_);
    }
    void fini() {
        if (state_) d_->fini(state_);
        state_ = nullptr;
    }

    // Calls a PACKED function; returns status, reply and error text.
    struct Reply {
        int status = 0;
        Bytes data;
        std::string error;
    };
    Reply call(const char *function, std::span<const std::uint8_t> args) {
        const harness_function *f = nullptr;
        for (std::size_t i = 0; i < d_->function_count; ++i)
            if (std::strcmp(d_->functions[i].name, function) == 0) f = &d_->functions[i];
        REQUIRE(f != nullptr);
        harness_buf err{}, out{};
        harness_call_ctx ctx{sizeof ctx, state_, &api_, &err};
        harness_reader r = harness_reader_make(args.data(), args.size());
        Reply reply;
        reply.status = f->packed(&ctx, &r, &out);
        reply.data.assign(out.data, out.data + out.len);
        reply.error.assign(reinterpret_cast<const char *>(err.data), err.len);
        harness_buf_free(&err);
        harness_buf_free(&out);
        return reply;
    }

    std::pair<std::int64_t, std::int64_t> spawn(std::vector<std::string> argv, const std::string &topic,
                                                const std::string &tag = "t") {
        Packer p;
        p.i64(static_cast<std::int64_t>(argv.size()));
        for (auto &a : argv) p.str(a);
        p.i64(0).str("").str(tag).str(topic);
        auto r = call("spawn", p.view());
        REQUIRE_MESSAGE(r.status == HARNESS_OK, r.error);
        Unpacker u(r.data);
        std::int64_t handle = 0, pid = 0;
        REQUIRE(u.i64(handle));
        REQUIRE(u.i64(pid));
        return {handle, pid};
    }

    // The head of a paged reply (output, wait): the cursor to pass next
    // time, into `after`, and the number of entries that follow.
    static std::int64_t page_head(Unpacker &u, std::int64_t &after) {
        std::int64_t n = 0;
        REQUIRE(u.i64(after));
        REQUIRE(u.i64(n));
        return n;
    }

    // Output lines until finished.
    std::vector<std::string> output(std::int64_t handle) {
        std::vector<std::string> lines;
        std::int64_t after = 0;
        for (int round = 0; round < 100; ++round) {
            Packer p;
            p.i64(handle).i64(after).i64(2000);
            auto r = call("output", p.view());
            REQUIRE(r.status == HARNESS_OK);
            Unpacker u(r.data);
            for (std::int64_t i = 0, n = page_head(u, after); i < n; ++i) {
                std::int32_t stream = 0;
                std::string text;
                REQUIRE(u.i32(stream));
                REQUIRE(u.str(text));
                lines.push_back(text);
            }
            bool finished = false;
            REQUIRE(u.boolean(finished));
            if (finished) return lines;
        }
        FAIL("output never finished");
        return lines;
    }

    FakeHost host_;

private:
    harness_host_api api_;
    void *handle_ = nullptr;
    const harness_plugin_descriptor *d_ = nullptr;
    void *state_ = nullptr;
};

}  // namespace

TEST_CASE("spawn, output, status and the proc_exit handed to vm/events") {
    Loaded p;
    // The lifecycle socket on descriptor 3: the last whole word written to it
    // comes back with the exit (an MPI library writes these).
    auto [handle, pid] = p.spawn({"/bin/sh", "-c",
                                  "echo hi $HARNESS_MEMBER $HARNESS_HCORE; echo ${HARNESS_LIFECYCLE_FD%%:*}; "
                                  "echo initialized >&3; echo finalized >&3; exit 3"},
                                 "job/9", "rank0");
    CHECK(p.output(handle) == std::vector<std::string>{"hi m-test 127.0.0.1:7999", "3"});
    Packer s;
    s.i64(handle);
    auto st = p.call("status", s.view());
    REQUIRE(st.status == HARNESS_OK);
    Unpacker u(st.data);
    std::string state;
    std::int32_t code = 0, sig = 0;
    REQUIRE(u.str(state));
    REQUIRE(u.i32(code));
    REQUIRE(u.i32(sig));
    std::string status_mpi_state;
    REQUIRE(u.str(status_mpi_state));
    CHECK(state == "exited");
    CHECK(code == 3);
    CHECK(sig == 0);
    CHECK(status_mpi_state == "finalized");

    // Published from the plugin's own thread: wait for it with a deadline.
    REQUIRE(wait_until(
        [&] {
            std::lock_guard lock(p.host_.mutex);
            return !p.host_.published.empty();
        },
        5s));
    std::lock_guard lock(p.host_.mutex);
    REQUIRE(p.host_.published.size() == 1);
    CHECK(p.host_.published[0].first == "job/9");
    Unpacker e(p.host_.published[0].second);
    std::string kind, member, tag, mpi_state = "?";
    std::int64_t h = 0, ppid = 0;
    std::int32_t ecode = 0, esig = 0;
    REQUIRE((e.str(kind) && e.str(member) && e.i64(h) && e.i64(ppid) && e.str(tag) && e.i32(ecode) && e.i32(esig) &&
             e.str(mpi_state)));
    CHECK(e.done());
    CHECK(mpi_state == "finalized");
    CHECK(kind == "proc_exit");
    CHECK(member == "m-test");
    CHECK(h == handle);
    CHECK(ppid == pid);
    CHECK(tag == "rank0");
    CHECK(ecode == 3);
    CHECK(esig == 0);
}

TEST_CASE("stdin, signals and wait through the C surface") {
    Loaded p;
    auto [cat, cat_pid] = p.spawn({"cat"}, "");
    Packer in;
    std::string text = "line one\nline two";
    in.i64(cat).bytes({reinterpret_cast<const std::uint8_t *>(text.data()), text.size()}).boolean(true).i64(1000);
    auto w = p.call("stdin", in.view());
    REQUIRE_MESSAGE(w.status == HARNESS_OK, w.error);
    CHECK(p.output(cat) == std::vector<std::string>{"line one", "line two"});

    auto [sleeper, sleeper_pid] = p.spawn({"sleep", "100"}, "");
    Packer sig;
    sig.i64(sleeper).i32(SIGTERM).boolean(true);
    REQUIRE(p.call("signal", sig.view()).status == HARNESS_OK);
    // Both exits arrive through wait.
    std::int64_t after = 0;
    std::vector<std::int32_t> signals;
    for (int round = 0; round < 50 && signals.size() < 2; ++round) {
        Packer wp;
        wp.i64(after).i64(1000);
        auto r = p.call("wait", wp.view());
        REQUIRE(r.status == HARNESS_OK);
        Unpacker u(r.data);
        for (std::int64_t i = 0, n = Loaded::page_head(u, after); i < n; ++i) {
            std::int64_t h = 0;
            std::string tag;
            std::int32_t code = 0, s = 0;
            REQUIRE((u.i64(h) && u.str(tag) && u.i32(code) && u.i32(s)));
            signals.push_back(s);
        }
    }
    CHECK(signals == std::vector<std::int32_t>{0, SIGTERM});
    // Nothing was published: no topic.
    std::lock_guard lock(p.host_.mutex);
    CHECK(p.host_.published.empty());
}

TEST_CASE("malformed arguments to every function are refused without harm") {
    Loaded p;
    const Bytes garbage{0x02, 0x01};                       // a truncated i64
    const Bytes wrong_type{0x05, 0x00, 0x00, 0x00, 0x00};  // an empty str where an i64 belongs
    for (const char *f : {"spawn", "signal", "status", "wait", "output", "stdin"}) {
        CHECK_MESSAGE(p.call(f, {}).status == HARNESS_ERR_INVALID_ARGUMENT, f);
        CHECK_MESSAGE(p.call(f, garbage).status == HARNESS_ERR_INVALID_ARGUMENT, f);
        auto r = p.call(f, wrong_type);
        CHECK_MESSAGE(r.status == HARNESS_ERR_INVALID_ARGUMENT, f);
        CHECK_MESSAGE(!r.error.empty(), f);
    }
    // Still works.
    auto [h, pid] = p.spawn({"true"}, "");
    CHECK(p.output(h).empty());
}

TEST_CASE("fini kills and reaps every child, descendants included") {
    Loaded p;
    auto [sleeper, sleeper_pid] = p.spawn({"sleep", "100"}, "");
    auto [sh, sh_pid] = p.spawn({"/bin/sh", "-c", "sleep 100 & echo $!; wait"}, "");
    std::int64_t after = 0;
    pid_t grandchild = 0;
    for (int round = 0; round < 20 && grandchild == 0; ++round) {
        Packer o;
        o.i64(sh).i64(after).i64(1000);
        auto r = p.call("output", o.view());
        REQUIRE(r.status == HARNESS_OK);
        Unpacker u(r.data);
        std::int64_t n = 0;
        REQUIRE(u.i64(after));
        REQUIRE(u.i64(n));
        if (n > 0) {
            std::int32_t stream = 0;
            std::string text;
            REQUIRE((u.i32(stream) && u.str(text)));
            grandchild = static_cast<pid_t>(std::stol(text));
        }
    }
    REQUIRE(grandchild > 0);
    p.fini();
    // Our own children are reaped by fini: they no longer exist at all.
    CHECK(::kill(static_cast<pid_t>(sleeper_pid), 0) != 0);
    CHECK(::kill(static_cast<pid_t>(sh_pid), 0) != 0);
    // The grandchild was killed with its group (init reaps it).
    CHECK(wait_until(
        [&] {
            std::ifstream stat("/proc/" + std::to_string(grandchild) + "/stat");
            std::string line;
            if (!std::getline(stat, line)) return true;
            return line.find(") Z") != std::string::npos;
        },
        5s));
}
