// libFuzzer target: plugin manifests (JSON). Property: parsing never crashes
// or throws, and an accepted manifest has safe names and known enum values.
#include <harness/common/loader.hpp>

#include <cstdlib>
#include <string_view>

using namespace harness;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    auto m = parse_manifest(std::string_view(reinterpret_cast<const char *>(data), size));
    if (!m) return 0;
    if (!is_valid_name_part(m->package) || !is_valid_name_part(m->component)) std::abort();
    if (m->level > HARNESS_LEVEL_APPLICATION || m->instance_policy > HARNESS_ONE_PER_VM) std::abort();
    if (m->cache_ttl.count() < 0) std::abort();
    for (const auto &d : m->dependencies)
        if (!parse_component_name(d)) std::abort();
    for (const auto &f : m->functions)
        if (f.convention > HARNESS_CALL_AUTO || f.default_mode > HARNESS_MODE_SERVICE) std::abort();
    return 0;
}
