// Wire-up: choosing the scheme (dir: or drd:) and the listen address (wireup.hpp).
#include "runtime/wireup.hpp"

#include "settings/values.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

namespace ftmpi::runtime {

namespace {

// Test hook, not a setting: FTMPI_TEST_LATE_CONTACT=<rank>:<ms> makes the
// replacement of world rank <rank> wait <ms> before it writes its record,
// so that a fellow replacement started with it reads its old one
// (tests/mpi/ftmodes: two replacements in one round).
void delay_if_tested(const JobInfo &job) {
    const char *hook = std::getenv("FTMPI_TEST_LATE_CONTACT");
    if (!job.restarted || hook == nullptr) return;
    int rank = -1, ms = 0;
    if (std::sscanf(hook, "%d:%d", &rank, &ms) == 2 && rank == job.rank && ms > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

}  // namespace

Contacts exchange_contacts(const JobInfo &job, const std::string &contact, std::chrono::milliseconds timeout,
                           StartupFailures &notices) {
    delay_if_tested(job);
    if (job.wireup.rfind("dir:", 0) == 0) return exchange_dir(job.wireup.substr(4), job, contact, timeout, notices);
    if (job.wireup.rfind("drd:", 0) == 0) return exchange_drd(job, contact, timeout, notices);
    throw std::runtime_error("FTMPI_WIREUP='" + job.wireup + "' is neither dir:<path> nor drd:");
}

std::string reread_contact(const JobInfo &job, int rank) {
    if (job.wireup.rfind("dir:", 0) == 0) return reread_contact_dir(job.wireup.substr(4), rank);
    if (job.wireup.rfind("drd:", 0) == 0) return reread_contact_drd(job, rank);
    throw std::runtime_error("FTMPI_WIREUP='" + job.wireup + "' is neither dir:<path> nor drd:");
}

std::string listen_host(const JobInfo &job) {
    if (job.wireup.rfind("dir:", 0) == 0) return "127.0.0.1";
    const settings::Values &env = settings::current();
    if (env.is_set(settings::Id::address)) return env.text(settings::Id::address);
    ifaddrs *list = nullptr;
    std::string found = "127.0.0.1";
    if (getifaddrs(&list) == 0) {
        for (ifaddrs *i = list; i; i = i->ifa_next) {
            if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
            auto *sin = reinterpret_cast<sockaddr_in *>(i->ifa_addr);
            if ((ntohl(sin->sin_addr.s_addr) >> 24) == 127) continue;
            char buf[INET_ADDRSTRLEN];
            inet_ntop(AF_INET, &sin->sin_addr, buf, sizeof buf);
            found = buf;
            break;
        }
        freeifaddrs(list);
    }
    return found;
}

}  // namespace ftmpi::runtime
