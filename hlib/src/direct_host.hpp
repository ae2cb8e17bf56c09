// hlib/src/direct_host.hpp — the host API Hlib offers plugins loaded into this
// process (internal).
//
// dlopen is per process, so the registry of in-process dependencies is too:
// one host per plugin root, and each dependency a plugin's init asks for is
// loaded and initialised once, then kept until the process exits.
#pragma once

#include <harness/loader.hpp>

#include <filesystem>

namespace harness::hlib::detail {

// The host API for plugins of this root; valid until the process exits.
const harness_host_api *direct_host(const std::filesystem::path &root);

// Resolves and opens a component and runs its init with host.
struct Initialised {
    std::unique_ptr<LoadedLibrary> library;
    void *state = nullptr;
};
Result<Initialised> open_and_init(const std::filesystem::path &root, const ComponentName &name,
                                  const harness_host_api *host);

} // namespace harness::hlib::detail
