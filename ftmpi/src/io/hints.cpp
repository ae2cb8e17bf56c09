// The hints a file understands (MPI-3.1 §13.2.8 reserved keys and ROMIO's
// names, so programs tuned for ROMIO keep their meaning), MPI_File_set_info
// and MPI_File_get_info.
#include "file.hpp"

#include "../internal/pmpi.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace ftmpi::io {
namespace {

// The value of `key` in info, or false when absent.
bool lookup(MPI_Info info, const char *key, std::string &value) {
    char buf[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    if (PMPI_Info_get(info, key, MPI_MAX_INFO_VAL, buf, &flag) != MPI_SUCCESS || !flag) return false;
    value = buf;
    return true;
}

int parse_switch(const std::string &v, bool &out) {
    if (v == "true" || v == "enable")
        out = true;
    else if (v == "false" || v == "disable")
        out = false;
    else
        return MPI_ERR_INFO_VALUE;
    return MPI_SUCCESS;
}

int parse_buffering(const std::string &v, CollectiveBuffering &out) {
    if (v == "enable" || v == "true")
        out = CollectiveBuffering::enable;
    else if (v == "disable" || v == "false")
        out = CollectiveBuffering::disable;
    else if (v == "automatic")
        out = CollectiveBuffering::automatic;
    else
        return MPI_ERR_INFO_VALUE;
    return MPI_SUCCESS;
}

const char *buffering_name(CollectiveBuffering b) {
    switch (b) {
    case CollectiveBuffering::enable: return "enable";
    case CollectiveBuffering::disable: return "disable";
    case CollectiveBuffering::automatic: return "automatic";
    }
    return "automatic";
}

int parse_positive(const std::string &v, long long &out) {
    char *end = nullptr;
    errno = 0;
    const long long n = std::strtoll(v.c_str(), &end, 10);
    if (errno != 0 || end == v.c_str() || *end != '\0' || n <= 0) return MPI_ERR_INFO_VALUE;
    out = n;
    return MPI_SUCCESS;
}

void set(MPI_Info info, const char *key, const std::string &value) {
    PMPI_Info_set(info, key, value.c_str());
}
}  // namespace

int apply_hints(MPI_Info info, Hints &hints) {
    if (info == MPI_INFO_NULL) return MPI_SUCCESS;
    Hints h = hints;
    std::string v;
    long long n = 0;
    if (lookup(info, "romio_cb_write", v))
        if (int err = parse_buffering(v, h.cb_write)) return err;
    if (lookup(info, "romio_cb_read", v))
        if (int err = parse_buffering(v, h.cb_read)) return err;
    if (lookup(info, "cb_nodes", v)) {
        if (int err = parse_positive(v, n)) return err;
        h.cb_nodes = static_cast<int>(std::min<long long>(n, 1 << 30));
    }
    if (lookup(info, "cb_buffer_size", v)) {
        if (int err = parse_positive(v, n)) return err;
        h.cb_buffer_size = static_cast<size_t>(n);
    }
    if (lookup(info, "ftmpi_consistent_collectives", v))
        if (int err = parse_switch(v, h.consistent)) return err;
    hints = h;
    return MPI_SUCCESS;
}

}  // namespace ftmpi::io

using namespace ftmpi;

extern "C" int MPI_File_set_info(MPI_File fh, MPI_Info info) noexcept {
    if (int err = io::check_file(fh)) return io::raise(fh, err, "MPI_File_set_info");
    return io::guarded(fh, "MPI_File_set_info", [&] {
        std::lock_guard lk(fh->mutex);
        return io::apply_hints(info, fh->hints);
    });
}
FTMPI_PMPI(File_set_info)

extern "C" int MPI_File_get_info(MPI_File fh, MPI_Info *info_used) noexcept {
    if (!io::valid(fh)) return io::raise(MPI_FILE_NULL, MPI_ERR_FILE, "MPI_File_get_info");
    if (info_used == nullptr) return io::raise(fh, MPI_ERR_ARG, "MPI_File_get_info");
    return io::guarded(fh, "MPI_File_get_info", [&] {
        MPI_Info info;
        if (int err = PMPI_Info_create(&info)) return err;
        std::lock_guard lk(fh->mutex);
        const io::Hints &h = fh->hints;
        io::set(info, "romio_cb_write", io::buffering_name(h.cb_write));
        io::set(info, "romio_cb_read", io::buffering_name(h.cb_read));
        io::set(info, "cb_nodes", std::to_string(io::aggregators(fh).size()));
        io::set(info, "cb_buffer_size", std::to_string(h.cb_buffer_size));
        io::set(info, "ftmpi_consistent_collectives", h.consistent ? "true" : "false");
        io::set(info, "filename", fh->path);
        *info_used = info;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(File_get_info)
