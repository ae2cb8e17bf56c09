// Wire-up: choosing the scheme (dir: or drd:) and the listen address (wireup.hpp).
#include "runtime/wireup.hpp"

#include "settings/values.hpp"

#include <cstring>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

namespace ftmpi::runtime {

Contacts exchange_contacts(const JobInfo &job, const std::string &contact, std::chrono::milliseconds timeout,
                           StartupFailures &notices) {
    if (job.wireup.rfind("dir:", 0) == 0) return exchange_dir(job.wireup.substr(4), job, contact, timeout, notices);
    if (job.wireup.rfind("drd:", 0) == 0) return exchange_drd(job, contact, timeout, notices);
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
