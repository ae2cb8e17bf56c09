// A file view (MPI-3.1 §13.3): displacement, etype, filetype and data
// representation. The filetype is flattened once, at set_view, into its
// contiguous runs (offset from the tile's origin, length), so that a range of
// the view's data stream — the bytes the process sees, one filetype's data
// after another — maps to file byte ranges by arithmetic and a binary search.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace ftmpi::io {

// A contiguous byte range of the file.
struct Segment {
    MPI_Offset offset = 0;
    size_t len = 0;
};

class View {
public:
    // The default view: displacement 0, MPI_BYTE etype and filetype, native.
    View();
    View(const View &) = delete;
    View &operator=(const View &) = delete;
    ~View();

    // Replaces the view. etype and filetype must be valid (committed); the
    // view retains them. MPI_ERR_TYPE when the filetype's data is not a whole
    // number of etypes; MPI_ERR_IO when the etype's or the filetype's
    // displacements go below zero or backwards, or (`writable`: the file
    // was not opened read-only) one of their blocks overlaps the one
    // before; MPI_ERR_UNSUPPORTED_DATAREP for a representation other than
    // native, internal or external32; MPI_ERR_CONVERSION for external32 with
    // an etype or filetype holding a type whose external32 size is not its
    // native one (long, unsigned long, wchar_t). The view is unchanged on error.
    int set(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, bool writable);

    MPI_Offset disp() const { return disp_; }
    MPI_Datatype etype() const { return etype_; }
    MPI_Datatype filetype() const { return filetype_; }
    const std::string &datarep() const { return datarep_; }
    bool external32() const { return external32_; }
    size_t etype_size() const { return etype_size_; }

    // Appends the file segments of data-stream bytes [start, start + len),
    // adjacent ones merged.
    void segments(MPI_Offset start, size_t len, std::vector<Segment> &out) const;
    // The absolute file offset of data-stream byte `b`.
    MPI_Offset file_offset(MPI_Offset b) const;
    // Data-stream bytes that lie before file offset `eof` (the end of the file
    // as the view sees it).
    MPI_Offset stream_bytes_before(MPI_Offset eof) const;

private:
    struct Run {
        MPI_Aint off;  // from the tile's origin
        size_t len;
        size_t start;  // data-stream bytes before it within a tile
    };
    bool dense() const { return dense_; }

    MPI_Offset disp_ = 0;
    MPI_Datatype etype_ = MPI_BYTE, filetype_ = MPI_BYTE;
    std::string datarep_ = "native";
    bool external32_ = false;
    size_t etype_size_ = 1;
    std::vector<Run> runs_;
    size_t tile_bytes_ = 1;     // data bytes in one filetype
    MPI_Aint tile_extent_ = 1;  // bytes of file between two tiles
    bool dense_ = true;         // one run filling the whole tile: stream byte b is at disp + b
};

}  // namespace ftmpi::io
