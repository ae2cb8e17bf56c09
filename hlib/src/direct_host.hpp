// hlib/src/direct_host.hpp — the host API Hlib offers plugins loaded into this
// process (internal).
//
// dlopen is per process, so the registry of in-process dependencies is too:
// one host per plugin root, and each dependency a plugin's init asks for is
// loaded and initialised once, then kept until the process exits.
#pragma once

#include <harness/common/loader.hpp>
#include <harness/hlib/hlib.hpp>

#include <filesystem>

namespace harness::hlib::detail {

// The host API for plugins of this root; valid until the process exits.
const harness_host_api *direct_host(const std::filesystem::path &root);

// <root>/lib → <root>/cache → the local daemon's RESOLVE (direct_resolve.cpp).
Result<ResolvedPlugin> resolve_in_process(const std::filesystem::path &root, const ComponentName &name,
                                          const DirectLoadOptions &options);

// Resolves and opens an application-level component and runs its init with
// host. Dependencies an init loads through the host resolve the same way,
// with default options.
struct Initialised {
    std::unique_ptr<LoadedLibrary> library;
    void *state = nullptr;
};
Result<Initialised> open_and_init(const std::filesystem::path &root, const ComponentName &name,
                                  const harness_host_api *host, const DirectLoadOptions &options = {});

}  // namespace harness::hlib::detail
