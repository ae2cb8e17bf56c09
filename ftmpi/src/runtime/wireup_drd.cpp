// Owner: core (mpicore). drd: wire-up — contacts as DRD records.
#include "runtime/wireup.hpp"

namespace ftmpi::runtime {

std::vector<std::string> exchange_drd(const JobInfo &, const std::string &, std::chrono::milliseconds) {
    throw std::runtime_error("FTMPI_WIREUP=drd: is not implemented yet in this build; use dir:<path> (one host)");
}

}  // namespace ftmpi::runtime
