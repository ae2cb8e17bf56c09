// dir: wire-up — contact files in a directory the
// launcher created for the job (one host). A rank
// whose file is missing is not waited for once the VM says it ended.
#include "runtime/wireup.hpp"

#include "runtime/startup_failures.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

namespace ftmpi::runtime {

namespace {

bool read_contact(const std::string &file, std::string *out) {
    std::ifstream in(file);
    if (!in) return false;
    std::getline(in, *out);
    return !out->empty();
}

}  // namespace

Contacts exchange_dir(const std::string &path, const JobInfo &job, const std::string &contact,
                      std::chrono::milliseconds timeout, StartupFailures &notices) {
    // Watch the directory before looking, so no file is missed in between.
    int watch = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (watch < 0 || inotify_add_watch(watch, path.c_str(), IN_MOVED_TO | IN_CLOSE_WRITE) < 0) {
        if (watch >= 0) close(watch);
        throw std::runtime_error("cannot watch wire-up directory " + path + ": " + std::strerror(errno));
    }
    const std::string mine = path + "/" + std::to_string(job.rank);
    {
        std::ofstream out(mine + ".tmp");
        out << contact << "\n";
        if (!out.flush()) {
            close(watch);
            throw std::runtime_error("cannot write " + mine + ".tmp");
        }
    }
    if (std::rename((mine + ".tmp").c_str(), mine.c_str()) != 0) {
        close(watch);
        throw std::runtime_error("cannot rename " + mine + ".tmp: " + std::strerror(errno));
    }

    Contacts out;
    out.cards.resize(job.size);
    if (job.restarted) {
        // Every rank wrote its record when the job started: read them as they are.
        for (int r = 0; r < job.size; ++r)
            if (r != job.rank) read_contact(path + "/" + std::to_string(r), &out.cards[r]);
        close(watch);
        return out;
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int next = 0;  // every other rank, in order: its card says which driver reaches it
    while (next < job.size) {
        if (next == job.rank) {
            ++next;
            continue;
        }
        if (read_contact(path + "/" + std::to_string(next), &out.cards[next])) {
            ++next;
            continue;
        }
        if (const std::string *why = notices.ended(next)) {
            out.ended.emplace(next, *why);  // it will never write its file
            ++next;
            continue;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            close(watch);
            throw std::runtime_error("wire-up timed out: rank " + std::to_string(next) + " never wrote " + path + "/" +
                                     std::to_string(next));
        }
        pollfd pfd{watch, POLLIN, 0};
        if (::poll(&pfd, 1, static_cast<int>(std::min(left, wireup_slice).count())) > 0) {
            char events[4096];
            while (read(watch, events, sizeof events) > 0) {}
        } else {
            notices.look(std::chrono::milliseconds(0));  // nothing written for a while: has the rank ended?
        }
    }
    close(watch);
    return out;
}

std::string reread_contact_dir(const std::string &path, int rank) {
    std::string record;
    read_contact(path + "/" + std::to_string(rank), &record);  // written by rename: whole or the old one
    return record;
}

}  // namespace ftmpi::runtime
