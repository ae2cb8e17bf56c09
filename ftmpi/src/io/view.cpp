// File views: flattening the filetype and mapping the data stream to file
// byte ranges (view.hpp).
#include "view.hpp"

#include "../internal/datatype.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ftmpi::io {

View::View() {
    runs_.push_back({0, 1, 0});
}

View::~View() {
    dt::release(etype_);
    dt::release(filetype_);
}

namespace {

// How a type's data lies in the file: its blocks in type-map order may
// only move forward (MPI-3.1 §13.1.1, §13.3: non-negative, monotonically
// non-decreasing displacements); one that starts inside the one before
// overlaps it, which only a file that is never written may use.
enum class Layout { forward, overlapping, backward };

// The type's runs in type-map order, offsets from the type's origin, and
// their layout. for_each_block walks a made-up buffer at `origin` (never
// dereferenced; not null, which for_each_block would take for "no run yet").
template <class Run>
Layout flatten(MPI_Datatype type, std::vector<Run> &runs) {
    constexpr std::uintptr_t origin = std::uintptr_t{1} << 44;
    Layout layout = Layout::forward;
    size_t start = 0;
    dt::for_each_block(reinterpret_cast<const void *>(origin), 1, type, [&](const void *p, size_t n) {
        const auto off = static_cast<MPI_Aint>(reinterpret_cast<std::uintptr_t>(p) - origin);
        if (off < 0 || (!runs.empty() && off < runs.back().off))
            layout = Layout::backward;
        else if (!runs.empty() && off < runs.back().off + static_cast<MPI_Aint>(runs.back().len) &&
                 layout == Layout::forward)
            layout = Layout::overlapping;
        runs.push_back({off, n, start});
        start += n;
    });
    return layout;
}

// MPI_SUCCESS when a view may use the type's layout. The standard names no
// error class for a layout it forbids; the types themselves are valid, so
// MPI_ERR_IO, as ROMIO answers.
template <class Run>
int check_layout(MPI_Datatype type, bool writable, std::vector<Run> &runs) {
    const Layout layout = flatten(type, runs);
    if (layout == Layout::backward || (layout == Layout::overlapping && writable)) return MPI_ERR_IO;
    return MPI_SUCCESS;
}

}  // namespace

int View::set(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, bool writable) {
    if (datarep == nullptr) return MPI_ERR_UNSUPPORTED_DATAREP;
    const bool ext32 = std::strcmp(datarep, "external32") == 0;
    if (!ext32 && std::strcmp(datarep, "native") != 0 && std::strcmp(datarep, "internal") != 0)
        return MPI_ERR_UNSUPPORTED_DATAREP;
    if (disp < 0) return MPI_ERR_ARG;
    if (!dt::valid(etype) || !dt::valid(filetype)) return MPI_ERR_TYPE;
    // A type whose external32 size differs from the native one (long, wchar_t)
    // would need the filetype's displacements rescaled (MPI-3.1 §13.5.1);
    // that is not done here, so such views are refused.
    if (ext32 && !(dt::external32_same_size(etype) && dt::external32_same_size(filetype))) return MPI_ERR_CONVERSION;
    const size_t esize = dt::size(etype);
    const size_t fsize = dt::size(filetype);
    const MPI_Aint extent = dt::extent(filetype);
    if (esize == 0 || fsize == 0 || fsize % esize != 0 || extent <= 0) return MPI_ERR_TYPE;
    std::vector<Run> etype_runs, runs;
    if (int e = check_layout(etype, writable, etype_runs)) return e;
    if (int e = check_layout(filetype, writable, runs)) return e;
    if (runs.empty()) return MPI_ERR_TYPE;

    dt::retain(etype);
    dt::retain(filetype);
    dt::release(etype_);
    dt::release(filetype_);
    disp_ = disp;
    etype_ = etype;
    filetype_ = filetype;
    datarep_ = datarep;
    external32_ = ext32;
    etype_size_ = esize;
    runs_ = std::move(runs);
    tile_bytes_ = fsize;
    tile_extent_ = extent;
    dense_ = runs_.size() == 1 && runs_[0].off == 0 && static_cast<MPI_Aint>(runs_[0].len) == extent;
    return MPI_SUCCESS;
}

void View::segments(MPI_Offset start, size_t len, std::vector<Segment> &out) const {
    auto add = [&out](MPI_Offset off, size_t n) {
        if (n == 0) return;
        if (!out.empty() && out.back().offset + static_cast<MPI_Offset>(out.back().len) == off)
            out.back().len += n;
        else
            out.push_back({off, n});
    };
    if (dense()) {
        add(disp_ + start, len);
        return;
    }
    const auto tb = static_cast<MPI_Offset>(tile_bytes_);
    MPI_Offset tile = start / tb;
    size_t within = static_cast<size_t>(start % tb);
    size_t i = static_cast<size_t>(
        std::upper_bound(runs_.begin(), runs_.end(), within, [](size_t w, const Run &r) { return w < r.start; }) -
        runs_.begin() - 1);
    while (len > 0) {
        const Run &r = runs_[i];
        const size_t skip = within - r.start;
        const size_t n = std::min(len, r.len - skip);
        add(disp_ + tile * tile_extent_ + r.off + static_cast<MPI_Offset>(skip), n);
        len -= n;
        within += n;
        if (++i == runs_.size()) {
            i = 0;
            ++tile;
            within = 0;
        }
    }
}

MPI_Offset View::file_offset(MPI_Offset b) const {
    std::vector<Segment> one;
    segments(b, 1, one);
    return one.front().offset;
}

MPI_Offset View::stream_bytes_before(MPI_Offset eof) const {
    if (eof <= disp_) return 0;
    const MPI_Offset rel = eof - disp_;
    const MPI_Offset tiles = rel / tile_extent_;
    const MPI_Offset rest = rel % tile_extent_;
    MPI_Offset bytes = tiles * static_cast<MPI_Offset>(tile_bytes_);
    for (const Run &r : runs_) bytes += std::clamp<MPI_Offset>(rest - r.off, 0, static_cast<MPI_Offset>(r.len));
    return bytes;
}

}  // namespace ftmpi::io
