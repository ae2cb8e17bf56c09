// MPI_Publish_name, MPI_Lookup_name and MPI_Unpublish_name (the names live
// where name_service.hpp says).
#include "dynamic/name_service.hpp"

#include "internal/comm.hpp"
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

#include <cstdio>
#include <cstring>
#include <string>

namespace {
// Checks every name call makes: MPI_SUCCESS or the code to raise.
int check_name_args(const char *service_name, MPI_Info info, const char *port_name) {
    if (service_name == nullptr || *service_name == '\0' || port_name == nullptr) return MPI_ERR_ARG;
    if (info != MPI_INFO_NULL && !ftmpi::comm::valid(info)) return MPI_ERR_INFO;
    return MPI_SUCCESS;
}

std::string bounded(const char *text, size_t most) {
    return std::string(text, strnlen(text, most));
}
}  // namespace

extern "C" int MPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name) noexcept {
    const char *fn = "MPI_Publish_name";
    if (int err = check_name_args(service_name, info, port_name)) return ftmpi::comm::raise_unattached(err, fn);
    return ftmpi::comm::raise_unattached(ftmpi::comm::code_of([&] {
                                             return ftmpi::dynamic::publish_name(
                                                 bounded(service_name, MPI_MAX_PORT_NAME),
                                                 bounded(port_name, MPI_MAX_PORT_NAME));
                                         }),
                                         fn);
}
FTMPI_PMPI(Publish_name)

extern "C" int MPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name) noexcept {
    const char *fn = "MPI_Lookup_name";
    if (int err = check_name_args(service_name, info, port_name)) return ftmpi::comm::raise_unattached(err, fn);
    return ftmpi::comm::raise_unattached(ftmpi::comm::code_of([&] {
                                             std::string port;
                                             int err = ftmpi::dynamic::lookup_name(
                                                 bounded(service_name, MPI_MAX_PORT_NAME), &port);
                                             if (err == MPI_SUCCESS)
                                                 std::snprintf(port_name, MPI_MAX_PORT_NAME, "%s", port.c_str());
                                             return err;
                                         }),
                                         fn);
}
FTMPI_PMPI(Lookup_name)

extern "C" int MPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name) noexcept {
    const char *fn = "MPI_Unpublish_name";
    if (int err = check_name_args(service_name, info, port_name)) return ftmpi::comm::raise_unattached(err, fn);
    return ftmpi::comm::raise_unattached(ftmpi::comm::code_of([&] {
                                             return ftmpi::dynamic::unpublish_name(
                                                 bounded(service_name, MPI_MAX_PORT_NAME),
                                                 bounded(port_name, MPI_MAX_PORT_NAME));
                                         }),
                                         fn);
}
FTMPI_PMPI(Unpublish_name)
