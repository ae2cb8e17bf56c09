// A reference model of MPI datatypes for the engine's tests: the plain type
// map of MPI-3.1 §4.1 (every basic element's displacement and size, in
// order) built straight from each constructor's definition, with no
// compaction or repeat folding. The engine must pack exactly the bytes this
// map names, in this order.
#pragma once

#include "internal/datatype.hpp"
#include "predefined.hpp"
#include "type.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ref {

using ftmpi::dt::Aint;
using ftmpi::dt::Type;

struct Entry {
    Aint disp;
    size_t size;
};

struct Map {
    std::vector<Entry> entries;
    Aint lb = 0, ub = 0;
    size_t align = 1;
    bool marked_lb = false, marked_ub = false;  // bounds set by resized (MPI-1's LB/UB markers)
    Aint extent() const { return ub - lb; }
    size_t size() const {
        size_t n = 0;
        for (const Entry &e : entries) n += e.size;
        return n;
    }
};

// Both halves of a test type: the engine's object and the reference map.
struct Pair {
    Type *type;
    Map map;
};

inline Map of_predefined(const Type *t) {
    Map m;
    m.lb = t->lb;
    m.ub = t->ub;
    m.align = t->align;
    if (t->sig.runs.size() == 2) {  // a pair type: value at 0, int at its C offset
        m.entries = {{0, t->sig.runs[0].bytes}, {t->true_ub - static_cast<Aint>(sizeof(int)), sizeof(int)}};
    } else {
        m.entries = {{0, t->size}};
    }
    return m;
}

// Bounds over copies of maps: the extremes of the copies' lb/ub, except
// that marked (resized) bounds, where any exist, win (MPI-1 LB/UB markers).
struct BoundsOf {
    bool any = false, any_lb_mark = false, any_ub_mark = false;
    Aint lb = 0, ub = 0, mlb = 0, mub = 0;
    void add(const Map &old, Aint d) {
        lb = any ? std::min(lb, d + old.lb) : d + old.lb;
        ub = any ? std::max(ub, d + old.ub) : d + old.ub;
        any = true;
        if (old.marked_lb) mlb = any_lb_mark ? std::min(mlb, d + old.lb) : d + old.lb, any_lb_mark = true;
        if (old.marked_ub) mub = any_ub_mark ? std::max(mub, d + old.ub) : d + old.ub, any_ub_mark = true;
    }
    void into(Map &m) const {
        m.lb = any_lb_mark ? mlb : lb;
        m.ub = any_ub_mark ? mub : ub;
        m.marked_lb = any_lb_mark;
        m.marked_ub = any_ub_mark;
    }
};

// Copies of `old` at the given displacements.
inline Map placed(const Map &old, const std::vector<Aint> &disps) {
    Map m;
    m.align = old.align;
    BoundsOf b;
    for (Aint d : disps) {
        for (const Entry &e : old.entries) m.entries.push_back({d + e.disp, e.size});
        b.add(old, d);
    }
    b.into(m);
    return m;
}

inline Map contiguous(const Map &old, int n) {
    std::vector<Aint> d;
    for (int k = 0; k < n; ++k) d.push_back(k * old.extent());
    return placed(old, d);
}

inline Map hvector(const Map &old, int count, int bl, Aint stride) {
    std::vector<Aint> d;
    for (int j = 0; j < count; ++j)
        for (int k = 0; k < bl; ++k) d.push_back(j * stride + k * old.extent());
    return placed(old, d);
}

inline Map hindexed(const Map &old, const std::vector<int> &bl, const std::vector<Aint> &disp) {
    std::vector<Aint> d;
    for (size_t i = 0; i < bl.size(); ++i)
        for (int k = 0; k < bl[i]; ++k) d.push_back(disp[i] + k * old.extent());
    return placed(old, d);
}

inline Map structure(const std::vector<Map> &olds, const std::vector<int> &bl, const std::vector<Aint> &disp) {
    Map m;
    BoundsOf b;
    for (size_t i = 0; i < olds.size(); ++i) {
        m.align = std::max(m.align, olds[i].align);
        for (int k = 0; k < bl[i]; ++k) {
            const Aint d = disp[i] + k * olds[i].extent();
            for (const Entry &e : olds[i].entries) m.entries.push_back({d + e.disp, e.size});
            b.add(olds[i], d);
        }
    }
    b.into(m);
    // C's padding only when no member has explicit bounds.
    const Aint a = static_cast<Aint>(m.align);
    if (!m.marked_lb && !m.marked_ub && (m.ub - m.lb) % a) m.ub += a - (m.ub - m.lb) % a;
    return m;
}

inline Map resized(Map old, Aint lb, Aint extent) {
    old.lb = lb;
    old.ub = lb + extent;
    old.marked_lb = old.marked_ub = true;
    return old;
}

// C-order subarray: every index tuple of the block, last index fastest.
inline Map subarray_c(const Map &old, const std::vector<int> &sizes, const std::vector<int> &subs,
                      const std::vector<int> &starts) {
    const size_t n = sizes.size();
    std::vector<Aint> d;
    std::vector<int> idx(n, 0);
    for (;;) {
        Aint off = 0;
        for (size_t k = 0; k < n; ++k) off = off * sizes[k] + (starts[k] + idx[k]);
        d.push_back(off * old.extent());
        size_t k = n;
        while (k-- > 0) {
            if (++idx[k] < subs[k]) break;
            idx[k] = 0;
        }
        if (k == static_cast<size_t>(-1)) break;
    }
    Map m = placed(old, d);
    Aint total = old.extent();
    for (int s : sizes) total *= s;
    m.lb = 0;
    m.ub = total;
    m.marked_lb = m.marked_ub = true;  // defined through resized (MPI-3.1 §4.1.3)
    return m;
}

// The bytes `count` elements of the map occupy, relative to the buffer origin.
inline std::pair<Aint, Aint> span_of(const Map &m, int count) {
    Aint lo = 0, hi = 0;
    for (int e = 0; e < count; ++e)
        for (const Entry &x : m.entries) {
            lo = std::min(lo, e * m.extent() + x.disp);
            hi = std::max(hi, e * m.extent() + x.disp + static_cast<Aint>(x.size));
        }
    return {lo, hi};
}

// Packing by the map's definition.
inline std::vector<unsigned char> pack(const Map &m, int count, const unsigned char *origin) {
    std::vector<unsigned char> out;
    for (int e = 0; e < count; ++e)
        for (const Entry &x : m.entries) {
            const unsigned char *p = origin + e * m.extent() + x.disp;
            out.insert(out.end(), p, p + x.size);
        }
    return out;
}

}  // namespace ref
