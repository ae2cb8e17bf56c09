#include "math.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace harness::examples::math {

std::int64_t add(std::int64_t a, std::int64_t b) {
    // Unsigned arithmetic: overflow wraps instead of being undefined.
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

std::int64_t noop() {
    return 0;
}

std::string echo(std::string_view text) {
    return std::string(text);
}

double scale(double value, double factor) {
    return value * factor;
}

std::int64_t pid() {
    return static_cast<std::int64_t>(::getpid());
}

std::int64_t sleep_ms(std::int64_t ms) {
    if (ms < 0 || ms > 600000) throw std::invalid_argument("sleep_ms wants 0..600000 milliseconds");
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return ms;
}

std::int64_t fail(std::string_view message) {
    throw std::runtime_error(std::string(message));
}

}  // namespace harness::examples::math
