// hcored — the HARNESS daemon. See settings.hpp for its options and
// daemon.hpp for how it is put together.
#include "daemon.hpp"
#include "detach.hpp"
#include "fetch_setup.hpp"
#include "settings.hpp"

#include <csignal>
#include <exception>

int main(int argc, char **argv) {
    using namespace harness::hcore;
    auto parsed = parse_settings(argc, argv);
    if (!parsed.settings) return parsed.exit_code;
    Settings settings = std::move(*parsed.settings);
    ::signal(SIGPIPE, SIG_IGN);  // a vanished client is an error code, not a crash

    std::error_code ec;
    std::filesystem::create_directories(settings.var_dir(), ec);
    auto ready = ReadyReporter::start(settings.foreground, (settings.var_dir() / "hcored.log").string());
    harness::Logger log("hcored", settings.log_level);
    try {
        auto directory = std::make_shared<PluginDirectory>();
        auto fetcher = make_fetcher(settings, log, directory);
        if (!fetcher) {
            ready.failed(fetcher.error().message);
            return 1;
        }
        Daemon daemon(std::move(settings), log, std::move(fetcher.value()), std::move(directory));
        return daemon.run(ready);
    } catch (const std::exception &e) {
        ready.failed(std::string("fatal: ") + e.what());
        return 1;
    }
}
