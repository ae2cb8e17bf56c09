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

// Between looks at the directory when it cannot be watched.
constexpr std::chrono::milliseconds unwatched_pause{5};

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
    // Without a watch (inotify instances are few per user: 128 by default,
    // and a job of a hundred ranks on one host can use them up) the loop
    // below looks again every few milliseconds instead.
    int watch = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (watch >= 0 && inotify_add_watch(watch, path.c_str(), IN_MOVED_TO | IN_CLOSE_WRITE) < 0) {
        close(watch);
        watch = -1;
    }
    auto close_watch = [&] {
        if (watch >= 0) close(watch);
    };
    const std::string mine = path + "/" + std::to_string(job.rank);
    {
        std::ofstream out(mine + ".tmp");
        out << contact << "\n";
        if (!out.flush()) {
            close_watch();
            throw std::runtime_error("cannot write " + mine + ".tmp");
        }
    }
    if (std::rename((mine + ".tmp").c_str(), mine.c_str()) != 0) {
        close_watch();
        throw std::runtime_error("cannot rename " + mine + ".tmp: " + std::strerror(errno));
    }

    Contacts out;
    out.cards.resize(job.size);
    if (job.restarted) {
        // Every rank wrote its record when the job started: read them as they are.
        for (int r = 0; r < job.size; ++r)
            if (r != job.rank) read_contact(path + "/" + std::to_string(r), &out.cards[r]);
        close_watch();
        return out;
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    auto last_look = std::chrono::steady_clock::now();
    int next = 0;  // every other rank, in order: its card says which driver reaches it
    while (next < job.size) {
        if (next == job.rank || job.is_absent(next)) {
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
            close_watch();
            throw std::runtime_error("wire-up timed out: rank " + std::to_string(next) + " never wrote " + path + "/" +
                                     std::to_string(next));
        }
        if (watch < 0) {
            std::this_thread::sleep_for(std::min(left, unwatched_pause));
            if (std::chrono::steady_clock::now() - last_look >= wireup_slice) {
                notices.look(std::chrono::milliseconds(0));  // has the rank ended?
                last_look = std::chrono::steady_clock::now();
            }
            continue;
        }
        pollfd pfd{watch, POLLIN, 0};
        if (::poll(&pfd, 1, static_cast<int>(std::min(left, wireup_slice).count())) > 0) {
            char events[4096];
            while (read(watch, events, sizeof events) > 0) {}
        } else {
            notices.look(std::chrono::milliseconds(0));  // nothing written for a while: has the rank ended?
        }
    }
    close_watch();
    return out;
}

std::string reread_contact_dir(const std::string &path, int rank) {
    std::string record;
    read_contact(path + "/" + std::to_string(rank), &record);  // written by rename: whole or the old one
    return record;
}

}  // namespace ftmpi::runtime
