#include "job_io.hpp"

#include <cerrno>
#include <unistd.h>

namespace harness::ftmpirun {

void Printer::line(const std::string &label, int stream, const std::string &text)
{
    std::string out;
    if (tag_) out = "[" + std::to_string(job_) + "," + label + "]" + (stream == 2 ? "<stderr>:" : "<stdout>:");
    out += text;
    out += '\n';
    write_all(stream == 2 ? 2 : 1, out);
}

void Printer::write_all(int fd, const std::string &s)
{
    std::lock_guard lock(mutex_);
    std::size_t done = 0;
    while (done < s.size()) {
        ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return; // our reader went away; the job still runs to its end
        done += static_cast<std::size_t>(n);
    }
}

} // namespace harness::ftmpirun
