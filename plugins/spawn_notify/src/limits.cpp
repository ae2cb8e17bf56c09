#include "limits.hpp"

#include <cstdlib>
#include <string>

namespace harness::vm::spawn {

namespace {

// A positive integer from the environment, or fallback when unset or invalid.
std::size_t env_size(const char *name, std::size_t fallback) {
    const char *text = std::getenv(name);
    if (!text || !*text) return fallback;
    char *end = nullptr;
    unsigned long long v = std::strtoull(text, &end, 10);
    if (*end != '\0' || v == 0) return fallback;
    return static_cast<std::size_t>(v);
}

}  // namespace

Limits Limits::from_environment() {
    Limits l;
    l.max_running = env_size("HARNESS_SPAWN_MAX_PROCS", l.max_running);
    l.max_output_bytes = env_size("HARNESS_SPAWN_MAX_OUTPUT_BYTES", l.max_output_bytes);
    if (l.max_line_bytes > l.max_output_bytes) l.max_line_bytes = l.max_output_bytes;
    l.exit_drain = std::chrono::milliseconds(env_size("HARNESS_SPAWN_EXIT_DRAIN_MS", 2000));
    return l;
}

}  // namespace harness::vm::spawn
