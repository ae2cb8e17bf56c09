// job.cpp — run_job: starts the job, its threads (output followers, stdin,
// signals, the member watcher, the job topic) and runs the controller loop
// until no rank is left, with the job's timeout and the grace after a
// forwarded signal (job.hpp; the Job itself: job_controller.hpp).
#include "job.hpp"

#include "job_controller.hpp"
#include "job_watchers.hpp"

#include <atomic>
#include <csignal>
#include <fcntl.h>
#include <pthread.h>
#include <thread>
#include <unistd.h>

namespace harness::ftmpirun {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kStopGrace{5000};
// How often the controller looks for recovery steps waited on for long.
constexpr std::chrono::milliseconds kStallCheck{5000};

}  // namespace

int run_job(const JobSpec &spec) {
    Printer printer(spec.job_id, spec.tag_output, spec.timestamp_output);
    ::signal(SIGPIPE, SIG_IGN);
    // The signals we forward are taken by one thread with sigwait; block them
    // everywhere before any thread starts.
    sigset_t forwarded;
    sigemptyset(&forwarded);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGUSR1}) sigaddset(&forwarded, s);
    pthread_sigmask(SIG_BLOCK, &forwarded, nullptr);

    Inbox inbox;
    Job job(spec, printer, inbox);
    if (!job.connect_daemons() || !job.prepare_wireup()) return 1;
    if (auto failed = job.start_ranks()) {
        job.cleanup_wireup();
        return *failed;
    }

    // Followers, stdin, signals, the member watcher and the job topic.
    job.start_followers();
    int wake[2] = {-1, -1};
    std::atomic<bool> stop_stdin{false};
    ConnectionStop stdin_connection;
    std::thread stdin_thread;
    if (spec.forward_stdin && ::pipe2(wake, O_CLOEXEC) == 0)
        stdin_thread = std::thread(
            [&] { forward_stdin(spec.ranks[0], job.rank0_handle(), spec.key, wake[0], stop_stdin, stdin_connection); });
    std::thread signal_thread([&] {
        for (;;) {
            int sig = 0;
            if (sigwait(&forwarded, &sig) != 0 || sig == SIGUSR1) return;
            Event e;
            e.kind = Event::Kind::signal;
            e.sig = sig;
            inbox.post(e);
        }
    });
    StopFlag stop_watchers;
    std::thread member_thread;
    if (!spec.vm.empty()) member_thread = std::thread([&] { watch_members(spec, inbox, stop_watchers); });
    std::thread topic_thread;
    if (!spec.vm.empty()) topic_thread = std::thread([&] { read_job_topic(spec, inbox, printer, stop_watchers); });

    // The controller.
    std::optional<Clock::time_point> deadline;
    if (spec.timeout) deadline = Clock::now() + *spec.timeout;
    // After a forwarded signal the ranks get this long to end on their own.
    std::optional<Clock::time_point> grace_end;
    bool timed_out = false;
    int signals = 0;
    auto next_stall_check = Clock::now() + kStallCheck;
    while (job.live() > 0) {
        if (const auto now = Clock::now(); now >= next_stall_check) {
            job.note_stalls(now);
            next_stall_check = now + kStallCheck;
        }
        std::optional<Clock::time_point> until = timed_out ? std::nullopt : deadline;
        if (grace_end && (!until || *grace_end < *until)) until = grace_end;
        if (!until || next_stall_check < *until) until = next_stall_check;
        auto ev = inbox.next(until);
        if (!ev) {
            const auto now = Clock::now();
            if (grace_end && now >= *grace_end) {
                grace_end.reset();
                printer.note("ranks still running " + std::to_string(kStopGrace.count() / 1000) +
                             " s after the signal; killing them");
                job.kill_all(SIGKILL);
                continue;
            }
            if (timed_out || !deadline || now < *deadline) continue;  // only the stall check was due
            timed_out = true;
            printer.note("job " + std::to_string(spec.job_id) + " timed out after " +
                         std::to_string(spec.timeout->count() / 1000.0).substr(0, 6) + " s; killing its ranks");
            job.kill_all(SIGKILL);
            continue;
        }
        if (ev->kind == Event::Kind::signal) {
            // The first SIGINT/SIGTERM/SIGHUP goes to every rank as it is (they
            // may clean up); a second one, or the grace running out, kills them.
            ++signals;
            job.kill_all(signals == 1 ? ev->sig : SIGKILL);
            if (signals == 1)
                grace_end = Clock::now() + kStopGrace;
            else
                grace_end.reset();
            continue;
        }
        if (ev->kind == Event::Kind::process_end && ev->exit.lost) job.note_lost_seen(ev->process);
        job.handle(*ev, job.aborting() || timed_out || signals > 0);
    }

    job.dismiss_standbys();
    stop_watchers.set();
    if (member_thread.joinable()) member_thread.join();
    if (topic_thread.joinable()) topic_thread.join();
    job.finish_threads();
    if (stdin_thread.joinable()) {
        stop_stdin = true;
        char one = 1;
        [[maybe_unused]] ssize_t n = ::write(wake[1], &one, 1);
        stdin_connection.stop();  // it may be waiting on rank 0's daemon
        stdin_thread.join();
    }
    for (int fd : wake)
        if (fd >= 0) ::close(fd);
    pthread_kill(signal_thread.native_handle(), SIGUSR1);
    signal_thread.join();
    job.cleanup_wireup();
    pthread_sigmask(SIG_UNBLOCK, &forwarded, nullptr);

    if (timed_out) return 124;
    return job.status(signals > 0);
}

}  // namespace harness::ftmpirun
