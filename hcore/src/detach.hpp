// Running hcored in the background. Without --foreground the process forks
// before doing anything else: the parent waits for the child's ready line (or
// its error) on a pipe, prints it and exits with the child's verdict, so a
// script that starts hcored knows it is serving when the command returns.
#pragma once

#include <string>

namespace harness::hcore {

class ReadyReporter {
public:
    // Foreground: report to stdout. Detached: fork now; only the child returns.
    static ReadyReporter start(bool foreground, const std::string &log_file);

    void ready(const std::string &line);  // "hcored ready …"
    void failed(const std::string &why);  // one-line reason, exit status 1

private:
    int pipe_fd_ = -1;  // detached child: write end towards the waiting parent
};

}  // namespace harness::hcore
