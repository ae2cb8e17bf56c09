// ConnectOptions defaults (docs/tools.md, "Common options"): --root, else $HARNESS_ROOT, else
// ~/.harness; --hcore, else $HARNESS_HCORE, else the Unix socket of the root;
// --key, else $HARNESS_KEY, else <root>/vm.key.
#include <harness/hlib/hlib.hpp>

#include <cstdlib>

#include <pwd.h>
#include <unistd.h>

namespace harness::hlib {

namespace {

const char *env(const char *name) {
    const char *v = std::getenv(name);
    return v && *v ? v : nullptr;
}

std::filesystem::path home_directory() {
    if (const char *h = env("HOME")) return h;
    if (const passwd *pw = ::getpwuid(::getuid()); pw && pw->pw_dir) return pw->pw_dir;
    return ".";
}

}  // namespace

ConnectOptions ConnectOptions::resolved() const {
    ConnectOptions o = *this;
    if (o.root.empty())
        o.root = env("HARNESS_ROOT") ? std::filesystem::path(env("HARNESS_ROOT")) : home_directory() / ".harness";
    if (!o.hcore) {
        // A malformed $HARNESS_HCORE is reported by VirtualMachine::connect.
        if (const char *h = env("HARNESS_HCORE"))
            if (auto e = parse_endpoint(h)) o.hcore = *e;
    }
    if (o.key_file.empty())
        o.key_file = env("HARNESS_KEY") ? std::filesystem::path(env("HARNESS_KEY")) : o.root / "vm.key";
    if (o.timeout.count() <= 0) o.timeout = std::chrono::milliseconds(5000);
    return o;
}

Result<ConnectOptions> ConnectOptions::from_command_line(const std::string &root, const std::string &key,
                                                         const std::string &hcore, std::chrono::milliseconds timeout) {
    ConnectOptions o;
    o.root = root;
    o.key_file = key;
    o.timeout = timeout;
    if (!hcore.empty()) {
        auto where = parse_endpoint(hcore);
        if (!where) return make_error(where.error().status, "--hcore: " + where.error().message);
        o.hcore = *where;
    }
    return o;
}

}  // namespace harness::hlib
