// Headless Chromium driven over the DevTools protocol (CDP), for the web
// view's browser test: the browser is started on about:blank with
// --remote-debugging-port=0, the test connects a WebSocket to its page and
// sends commands (Page.navigate, Runtime.evaluate, Page.captureScreenshot),
// each answered within a deadline. Chromium and its helpers run in a
// process group of their own, which the destructor kills.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include <sys/types.h>

namespace harness::web_test {

// Debian's chromium, or "" when it is not installed.
std::filesystem::path chromium_path();

class Browser {
public:
    // Throws std::runtime_error with chromium's stderr when it does not come up.
    static std::unique_ptr<Browser> start(const std::filesystem::path &profile_dir,
                                          std::chrono::milliseconds timeout = std::chrono::seconds(30));
    ~Browser();
    Browser(const Browser &) = delete;
    Browser &operator=(const Browser &) = delete;

    // A CDP command's "result"; throws std::runtime_error on an error reply or the deadline.
    nlohmann::json call(const std::string &method, const nlohmann::json &params = nlohmann::json::object(),
                        std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // The value of a JavaScript expression in the page (null on an exception).
    nlohmann::json evaluate(const std::string &expression);
    // A PNG of the page as shown.
    std::string screenshot_png();

private:
    Browser() = default;
    void send_text(const std::string &text);
    std::string receive_message(std::chrono::steady_clock::time_point deadline);

    pid_t pid_ = -1;
    int fd_ = -1;
    int next_id_ = 1;
    std::filesystem::path stderr_file_;
};

}  // namespace harness::web_test
