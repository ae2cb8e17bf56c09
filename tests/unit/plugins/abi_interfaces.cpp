// ABI 1.2: typed interfaces in the descriptor. The loader finds them by name
// and version, still loads a plugin built with the 1.1 descriptor layout
// (whose struct_size ends before the interface fields), and refuses a
// malformed interface table before calling anything (the malformed test
// plugins abort in init). Test plugins: abi/abitest.c.
#include "abitest_counter.h"
#include "edited_manifest.hpp"

#include <harness/common/loader.hpp>

#include <doctest/doctest.h>

using namespace harness;

namespace {

Result<ResolvedPlugin> where(const std::string &component) {
    return Resolver(HARNESS_ABI_TEST_ROOT).resolve({"abitest", component});
}

Result<std::unique_ptr<LoadedLibrary>> open_component(const std::string &component,
                                                      std::optional<harness_level> level = std::nullopt) {
    auto w = where(component);
    REQUIRE_MESSAGE(w.ok(), w.error().describe());
    return LoadedLibrary::open(*w, level);
}

const abitest_counter_ops *counter(const LoadedLibrary &lib, std::uint32_t min_version) {
    const harness_interface *i = lib.find_interface("abitest.counter", min_version);
    return i ? static_cast<const abitest_counter_ops *>(i->ops) : nullptr;
}

}  // namespace

TEST_CASE("a 1.2 plugin's interfaces are found by name and the highest version at least the one asked for") {
    auto lib = open_component("good", HARNESS_LEVEL_APPLICATION);
    REQUIRE_MESSAGE(lib.ok(), lib.error().describe());
    const auto &d = (*lib)->descriptor();
    CHECK(d.abi_minor == 2);
    REQUIRE(interface_count(d) == 2);
    CHECK(std::string(interface_at(d, 1).name) == "abitest.counter");
    CHECK(interface_at(d, 1).version == 2);
    REQUIRE((*lib)->manifest().interfaces.size() == 2);

    for (std::uint32_t min : {0u, 1u, 2u}) {
        CAPTURE(min);
        const abitest_counter_ops *ops = counter(**lib, min);
        REQUIRE(ops != nullptr);
        CHECK(ops->struct_size >= sizeof(abitest_counter_ops));
        CHECK(ops->next(40) == 42);  // version 2 counts by two
    }
    CHECK((*lib)->find_interface("abitest.counter", 3) == nullptr);
    CHECK((*lib)->find_interface("abitest.other", 0) == nullptr);
}

TEST_CASE("a plugin built with the ABI 1.1 descriptor layout loads and exports no interface") {
    auto lib = open_component("old", HARNESS_LEVEL_APPLICATION);
    REQUIRE_MESSAGE(lib.ok(), lib.error().describe());
    const auto &d = (*lib)->descriptor();
    CHECK(d.abi_minor == 1);
    CHECK(d.struct_size < sizeof(harness_plugin_descriptor));
    // The bytes after its descriptor hold a count of 7 and a bogus table:
    // only a loader reading past struct_size would see them.
    CHECK(interface_count(d) == 0);
    CHECK((*lib)->find_interface("abitest.counter", 0) == nullptr);
    const harness_function *add = (*lib)->find_function("add");
    REQUIRE(add != nullptr);
    auto native = reinterpret_cast<std::int64_t (*)(std::int64_t, std::int64_t)>(add->native);
    CHECK(native(40, 2) == 42);
}

TEST_CASE("malformed interface tables are refused before anything in the plugin runs") {
    struct Case {
        const char *component;
        int status;
        const char *says;
    };
    for (const Case &c : {
             Case{"null_table", HARNESS_ERR_ABI_MISMATCH, "lists 2 interfaces but has no table"},
             Case{"small_entry", HARNESS_ERR_ABI_MISMATCH, "smaller than ABI 1.2's"},
             Case{"null_name", HARNESS_ERR_ABI_MISMATCH, "interface #1 has no name"},
             Case{"null_ops", HARNESS_ERR_ABI_MISMATCH, "abitest.counter v1 has no ops table"},
             Case{"duplicate", HARNESS_ERR_ABI_MISMATCH, "abitest.counter v1 is exported twice"},
             Case{"unlisted", HARNESS_ERR_LOAD_FAILED,
                  "exports interface abitest.counter v1 that its manifest does not list"},
         }) {
        CAPTURE(c.component);
        auto lib = open_component(c.component);
        REQUIRE_FALSE(lib.ok());
        CHECK(lib.error().status == c.status);
        CHECK_MESSAGE(lib.error().message.find(c.says) != std::string::npos, lib.error().message);
    }
}

TEST_CASE("a manifest listing an interface the plugin does not export is refused") {
    auto lib =
        abitest::open_good_with(R"("interfaces": [)", R"("interfaces": [{"name": "abitest.counter", "version": 3}, )");
    REQUIRE_FALSE(lib.ok());
    CHECK(lib.error().status == HARNESS_ERR_LOAD_FAILED);
    CHECK(lib.error().message.find("lists interface abitest.counter v3 that the plugin does not export") !=
          std::string::npos);
}

TEST_CASE("a host is refused a plugin of the other level before dlopen") {
    auto lib = open_component("good", HARNESS_LEVEL_DAEMON);
    REQUIRE_FALSE(lib.ok());
    CHECK(lib.error().status == HARNESS_ERR_NOT_SUPPORTED);
    CHECK(lib.error().message.find("abitest/good is an application-level plugin") != std::string::npos);
    CHECK(lib.error().message.find("never into a daemon") != std::string::npos);
}

TEST_CASE("validate_descriptor: an implausible interface count is refused without walking it") {
    harness_interface one{sizeof(harness_interface), "x", 1, &one};
    harness_plugin_descriptor d{};
    d.abi_major = HARNESS_PLUGIN_ABI_MAJOR;
    d.abi_minor = HARNESS_PLUGIN_ABI_MINOR;
    d.struct_size = sizeof d;
    d.package = "p";
    d.component = "c";
    d.version = "1";
    d.interface_count = 1;
    d.interfaces = &one;
    CHECK(validate_descriptor(&d).ok());
    d.interface_count = std::size_t{1} << 40;
    auto r = validate_descriptor(&d);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("interfaces (at most") != std::string::npos);
    // The same fields beyond a 1.1 struct_size are not read at all.
    d.struct_size = offsetof(harness_plugin_descriptor, interface_count);
    CHECK(validate_descriptor(&d).ok());
}
