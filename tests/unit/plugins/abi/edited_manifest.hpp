// A test helper of the loader tests: opens abitest/good from a root of its
// own whose manifest is good.json with one piece of text replaced, to show
// that a manifest differing from the descriptor is refused. Only refusal
// cases use it: none runs init, which would load abitest/old from that root.
#pragma once

#include <harness/common/loader.hpp>

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

namespace abitest {

inline harness::Result<std::unique_ptr<harness::LoadedLibrary>> open_good_with(const std::string &from,
                                                                               const std::string &to) {
    namespace fs = std::filesystem;
    auto w = harness::Resolver(HARNESS_ABI_TEST_ROOT).resolve({"abitest", "good"});
    REQUIRE(w.ok());
    char dir_template[] = "/tmp/abitest-XXXXXX";
    REQUIRE(::mkdtemp(dir_template) != nullptr);
    fs::path dir = dir_template;
    fs::create_directories(dir / "lib" / "abitest");
    fs::copy_file(w->shared_object, dir / "lib" / "abitest" / "good.so");
    std::ifstream in(w->manifest);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    text.replace(at, from.size(), to);
    std::ofstream(dir / "lib" / "abitest" / "good.json") << text;
    auto lib = harness::LoadedLibrary::open(*harness::Resolver(dir).resolve({"abitest", "good"}));
    fs::remove_all(dir);
    return lib;
}

}  // namespace abitest
