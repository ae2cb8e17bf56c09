// comm/shm.so as a plugin: the common loader accepts it (application level,
// descriptor and manifest agree), and its exported ops table works.
#include <harness/common/loader.hpp>

#include <ftmpi/comm_shm.h>

#include <doctest/doctest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <string>

using namespace harness;

TEST_CASE("comm/shm loads through the common loader and exports its ops table") {
    Resolver resolver(HARNESS_PLUGINS_ROOT);
    auto where = resolver.resolve({"comm", "shm"});
    REQUIRE_MESSAGE(where.ok(), where.error().describe());
    auto lib = LoadedLibrary::open(where.value());
    REQUIRE_MESSAGE(lib.ok(), lib.error().describe());
    const harness_plugin_descriptor &d = lib.value()->descriptor();
    CHECK(std::string(d.package) == "comm");
    CHECK(std::string(d.component) == "shm");
    CHECK(d.level == HARNESS_LEVEL_APPLICATION);
    CHECK(d.function_count == 0);

    // Until the descriptor carries typed interfaces, the table is found by symbol.
    void *handle = ::dlopen(where.value().shared_object.c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE(handle != nullptr);
    using OpsFn = const ftmpi_transport_ops *(*)();
    auto get_ops = reinterpret_cast<OpsFn>(::dlsym(handle, "ftmpi_comm_shm_ops"));
    REQUIRE(reinterpret_cast<void *>(get_ops) != nullptr);
    const ftmpi_transport_ops *ops = get_ops();
    REQUIRE(ops != nullptr);
    CHECK(std::string(ops->name) == "shm");
    CHECK(ops->version == FTMPI_TRANSPORT_VERSION);

    // A one-rank job: open, address, close, nothing left behind.
    ftmpi_transport_sink sink{};
    sink.struct_size = sizeof sink;
    sink.on_header = [](void *, int, const ftmpi_frame *, ftmpi_landing *) {};
    sink.on_frame = [](void *, int, const ftmpi_frame *, const ftmpi_landing *) {};
    sink.on_sent = [](void *, uint64_t) {};
    sink.on_peer_lost = [](void *, int) {};
    const std::string job = "plugin-" + std::to_string(::getpid());
    ftmpi_transport_open_args args{};
    args.struct_size = sizeof args;
    args.job = job.c_str();
    args.rank = 0;
    args.size = 1;
    ftmpi_transport *t = nullptr;
    char err[256] = "";
    REQUIRE_MESSAGE(ops->open(&args, &sink, &t, err, sizeof err) == FTMPI_TRANSPORT_OK, err);
    char address[256];
    CHECK(ops->address(t, address, sizeof address) == FTMPI_TRANSPORT_OK);
    CHECK(ops->progress(t) == 0);
    ops->close(t);
    CHECK(::access(("/dev/shm/ftmpi." + job + ".0.0").c_str(), F_OK) != 0);
    ::dlclose(handle);
}
