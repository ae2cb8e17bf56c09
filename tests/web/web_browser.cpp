// The web view in a real browser: headless Chromium opens the page of a
// daemon with every VM service and vm/web while a 4-rank SHRINK job
// (tests/spawn/cominfo_job.c) runs; the test kills rank 2 with kill -9 and
// waits — in the same page, updated by the server's events, never reloaded —
// until that rank's cells have data-state="FAILED" in cominfo's failed
// colour. The screenshot of that moment is kept as the test's artefact:
// <build>/tests/web/artefacts/webview-failed-rank.png.
#include "browser.hpp"
#include "spawn_support.hpp"
#include "web_support.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <fstream>
#include <future>

using namespace harness;
using namespace harness::web_test;
using nlohmann::json;

namespace {

void touch(const std::filesystem::path &p) {
    std::ofstream(p) << "1\n";
}

// The communicator of a job view with this name, or null.
const json *comm_named(const json &view, const std::string &name) {
    for (const auto &c : view["communicators"])
        if (c.value("name", "") == name) return &c;
    return nullptr;
}

}  // namespace

TEST_CASE("the page shows a killed rank's cells turn FAILED, live") {
    // Not installed is a failure, not a skip: scripts/setup.sh installs chromium.
    REQUIRE_MESSAGE(!chromium_path().empty(), "chromium is not installed (scripts/setup.sh installs it)");

    auto d = start_daemon({"HARNESS_WEB_PORT=0"});
    const auto port = web_port(*d);
    test::TempDir dir("web-browser");

    const auto argv =
        spawn_test::cominfo_job_command(FTMPIRUN_PATH, COMINFO_JOB_PATH, d->tcp(), d->key_file(), dir.path());
    auto job = std::async(std::launch::async, [argv] { return it::run_program(argv, 110s); });
    // However the test ends, the job is told to finish, so a failed check
    // does not wait out the job's own 110 s.
    struct FinishJob {
        std::filesystem::path file;
        ~FinishJob() { std::ofstream(file) << "1"; }
    } finish_job{dir.path() / "finish"};
    auto job_output = [&] {
        auto r = job.get();
        return "ftmpirun status " + std::to_string(r.exit_code()) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
    };
    if (!test::wait_until([&] { return std::filesystem::exists(dir.path() / "ready"); }, 60s))
        FAIL("the job did not start: " << job_output());

    // The job as /api/jobs shows it (cominfo's view): 4 running ranks, "work" all OK.
    json view;
    const bool healthy = test::wait_until(
        [&] {
            auto jobs = json::parse(get(port, "/api/jobs").body, nullptr, false);
            if (jobs.is_discarded() || jobs["jobs"].empty()) return false;
            view = jobs["jobs"][0];
            const json *work = comm_named(view, "work");
            if (!work || (*work)["cells"].size() != 4) return false;
            for (const auto &c : (*work)["cells"])
                if (c["state"] != "OK") return false;
            for (const auto &r : view["ranks"])
                if (r["state"] != "running") return false;
            return view["ranks"].size() == 4;
        },
        20s);
    CAPTURE(view.dump(2));
    REQUIRE(healthy);
    const std::string job_id = view["job"];
    // The one job's view is the list's entry (as `cominfo --job J --json`).
    // The ranks may still report between the two requests (a record's
    // time), so the two are compared until they agree.
    const bool same = test::wait_until(
        [&] {
            const json jobs = json::parse(get(port, "/api/jobs").body, nullptr, false);
            if (jobs.is_discarded() || !jobs.contains("jobs") || jobs["jobs"].empty()) return false;
            view = jobs["jobs"][0];
            return json::parse(get(port, "/api/jobs/" + job_id).body, nullptr, false) == view;
        },
        10s);
    CHECK(same);

    auto browser = Browser::start(dir.path() / "chromium");
    browser->call("Page.navigate", {{"url", "http://127.0.0.1:" + std::to_string(port) + "/"}});
    const std::string cells = "document.querySelectorAll('.cell[data-job=\"" + job_id + "\"][data-world=\"2\"]')";
    // Every communicator (MPI_COMM_WORLD and "work") shows world rank 2 OK.
    const std::string all_ok =
        "(() => { const c = [..." + cells + "]; return c.length >= 2 && c.every(e => e.dataset.state === 'OK'); })()";
    CHECK(test::wait_until([&] { return browser->evaluate(all_ok) == true; }, 15s));
    // A mark in the page: still there after the failure shows the page was updated, not reloaded.
    browser->evaluate("window.harnessTestMark = 42");

    const pid_t victim = view["ranks"][2]["pid"].get<pid_t>();
    REQUIRE(victim > 0);
    REQUIRE(::kill(victim, SIGKILL) == 0);
    const auto killed = std::chrono::steady_clock::now();

    // The failed colour is cominfo's FAILED red (page.html: .s-FAILED, #c62828).
    const std::string failed = "(() => { const c = [..." + cells +
        "]; return c.length >= 2 && c.every(e => e.dataset.state === 'FAILED' && "
        "getComputedStyle(e).backgroundColor === 'rgb(198, 40, 40)'); })()";
    const bool seen = test::wait_until([&] { return browser->evaluate(failed) == true; }, 15s);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - killed);
    CAPTURE(browser->evaluate("document.getElementById('jobs').innerText"));
    REQUIRE(seen);
    MESSAGE("the page showed the failure " << took.count() << " ms after the kill");
    CHECK(browser->evaluate("window.harnessTestMark") == 42);
    CHECK(browser->evaluate("document.querySelector('[data-rank-state=\"2\"]').dataset && "
                            "document.querySelector('[data-rank-state=\"2\"]').textContent") == "failed");

    const auto png = browser->screenshot_png();
    REQUIRE(png.size() > 8);
    CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    std::filesystem::create_directories(WEB_ARTEFACT_DIR);
    const auto shot = std::filesystem::path(WEB_ARTEFACT_DIR) / "webview-failed-rank.png";
    std::ofstream(shot, std::ios::binary) << png;
    MESSAGE("screenshot: " << shot.string());
    browser.reset();

    // Let the survivors recover and finish, so the job ends cleanly.
    touch(dir.path() / "recover");
    touch(dir.path() / "finish");
    auto result = job.get();
    CAPTURE(result.out);
    CAPTURE(result.err);
    CHECK(result.exit_code() == 0);
}
