// A plugin's manifest lists the same functions as its descriptor (name,
// convention, default mode, AUTO signature): the loader refuses a mismatch
// before calling anything, naming the function. The manifest is what hpublish
// publishes and repository indexes show, so a drifted one would advertise
// functions a caller cannot get. Test plugins: abi/abitest.c.
#include "edited_manifest.hpp"

#include <harness/common/loader.hpp>

#include <doctest/doctest.h>

#include <filesystem>

using namespace harness;
namespace fs = std::filesystem;

namespace {

void check_refused(const Result<std::unique_ptr<LoadedLibrary>> &lib, const std::string &says) {
    REQUIRE_FALSE(lib.ok());
    CHECK(lib.error().status == HARNESS_ERR_LOAD_FAILED);
    CHECK_MESSAGE(lib.error().message.find(says) != std::string::npos, lib.error().message);
}

}  // namespace

TEST_CASE("a plugin whose manifest leaves out one of its functions is refused before anything runs") {
    // abitest/unlisted_function's init aborts: reaching it fails the test.
    auto w = Resolver(HARNESS_ABI_TEST_ROOT).resolve({"abitest", "unlisted_function"});
    REQUIRE(w.ok());
    check_refused(LoadedLibrary::open(*w),
                  "abitest/unlisted_function: the plugin exports function relay that its manifest does not list");
}

TEST_CASE("a manifest that differs from the descriptor in a function is refused, naming the function") {
    SUBCASE("a function the plugin does not export") {
        check_refused(abitest::open_good_with(R"({"name": "sum",)",
                                              R"({"name": "gone", "convention": "packed"}, {"name": "sum",)"),
                      "the manifest lists function gone that the plugin does not export");
    }
    SUBCASE("another calling convention") {
        check_refused(abitest::open_good_with(R"("sum", "convention": "packed")", R"("sum", "convention": "raw")"),
                      "function sum is packed but the manifest says raw");
    }
    SUBCASE("another default mode") {
        check_refused(abitest::open_good_with(R"("fail", "convention": "packed", "default_mode": "inline")",
                                              R"("fail", "convention": "packed", "default_mode": "thread")"),
                      "function fail runs inline by default but the manifest says thread");
    }
    SUBCASE("another AUTO signature") {
        check_refused(abitest::open_good_with(R"x("signature": "str(str)")x", R"x("signature": "str(i64)")x"),
                      "function echo has signature str(str) but the manifest says \"str(i64)\"");
    }
}

TEST_CASE("every plugin the build installs has a manifest that matches its descriptor") {
    // Opening without a host level runs no init: only the loader's checks.
    std::size_t checked = 0;
    const fs::path root = HARNESS_PLUGINS_ROOT;
    for (const auto &entry : fs::recursive_directory_iterator(root / "lib")) {
        if (entry.path().extension() != ".so") continue;
        ComponentName name{entry.path().parent_path().filename().string(), entry.path().stem().string()};
        if (name.to_string() == "examples/badabi") continue;  // refused for its ABI on purpose
        CAPTURE(name.to_string());
        auto w = Resolver(root).resolve(name);
        REQUIRE(w.ok());
        auto lib = LoadedLibrary::open(*w);
        CHECK_MESSAGE(lib.ok(), (lib.ok() ? std::string() : lib.error().message));
        ++checked;
    }
    CHECK(checked >= 7);  // the examples package at least
}
