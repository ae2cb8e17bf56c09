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

int View::set(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep) {
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

    // The filetype's runs in type-map order, offsets from the tile's origin:
    // for_each_block walks a made-up buffer at `origin` (never dereferenced;
    // not null, which for_each_block would take for "no run yet").
    constexpr std::uintptr_t origin = std::uintptr_t{1} << 44;
    std::vector<Run> runs;
    bool ordered = true;
    size_t start = 0;
    dt::for_each_block(reinterpret_cast<const void *>(origin), 1, filetype, [&](const void *p, size_t n) {
        const auto off = static_cast<MPI_Aint>(reinterpret_cast<std::uintptr_t>(p) - origin);
        if (off < 0 || (!runs.empty() && off < runs.back().off + static_cast<MPI_Aint>(runs.back().len)))
            ordered = false;
        runs.push_back({off, n, start});
        start += n;
    });
    // MPI-3.1 §13.3: the filetype's displacements are non-negative and
    // monotonically non-decreasing (and so are the etype's, trivially here).
    if (!ordered || runs.empty()) return MPI_ERR_TYPE;

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
