#include "job_io.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <unistd.h>

namespace harness::ftmpirun {

void Printer::line(const std::string &label, int stream, const std::string &text) {
    std::string out;
    if (timestamp_) {
        // "[2026-11-25 20:31:07.412] ": local time the line reached us.
        auto now = std::chrono::system_clock::now();
        std::time_t t = std::chrono::system_clock::to_time_t(now);
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
        std::tm tm{};
        localtime_r(&t, &tm);
        char buf[64];
        std::snprintf(buf, sizeof buf, "[%04d-%02d-%02d %02d:%02d:%02d.%03d] ", tm.tm_year + 1900, tm.tm_mon + 1,
                      tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
        out = buf;
    }
    if (tag_) out += "[" + std::to_string(job_) + "," + label + "]" + (stream == 2 ? "<stderr>:" : "<stdout>:");
    out += text;
    out += '\n';
    write_all(stream == 2 ? 2 : 1, out);
}

void Printer::write_all(int fd, const std::string &s) {
    std::lock_guard lock(mutex_);
    std::size_t done = 0;
    while (done < s.size()) {
        ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // our reader went away; the job still runs to its end
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace harness::ftmpirun
