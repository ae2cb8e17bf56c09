// Composition of Signatures and element counting (see signature.hpp).
#include "signature.hpp"

#include <algorithm>

namespace ftmpi::dt {

namespace {

void append(std::vector<SigRun> &out, const SigRun &r) {
    if (r.n == 0) return;
    if (!out.empty() && out.back().kind == r.kind && out.back().bytes == r.bytes) {
        out.back().n += r.n;
        return;
    }
    out.push_back(r);
}

std::vector<SigRun> expanded(const Signature &s) {
    std::vector<SigRun> out;
    for (size_t i = 0; i < s.reps; ++i)
        for (const SigRun &r : s.runs) append(out, r);
    return out;
}

}  // namespace

size_t Signature::rep_bytes() const {
    size_t n = 0;
    for (const SigRun &r : runs) n += r.n * r.bytes;
    return n;
}

size_t Signature::rep_elements() const {
    size_t n = 0;
    for (const SigRun &r : runs) n += r.n;
    return n;
}

Signature replicate(const Signature &child, size_t n) {
    if (n == 0 || child.runs.empty()) return {};
    Signature out;
    if (child.runs.size() == 1) {
        out.runs = child.runs;
        out.runs[0].n *= child.reps * n;
        return out;
    }
    out.runs = child.runs;
    out.reps = child.reps * n;
    return out;
}

Signature concat(const std::vector<Signature> &parts) {
    Signature out;
    for (const Signature &p : parts) {
        if (p.reps > 1 && p.runs.size() > 1) {
            for (const SigRun &r : expanded(p)) append(out.runs, r);
        } else {
            for (SigRun r : p.runs) {
                r.n *= p.reps;
                append(out.runs, r);
            }
        }
    }
    return out;
}

std::int64_t elements_in(const Signature &s, size_t bytes) {
    const size_t elem_bytes = s.bytes();
    if (elem_bytes == 0) return 0;
    std::int64_t n = static_cast<std::int64_t>((bytes / elem_bytes) * s.elements());
    size_t rem = bytes % elem_bytes;
    const size_t rep_bytes = s.rep_bytes();
    n += static_cast<std::int64_t>((rem / rep_bytes) * s.rep_elements());
    rem %= rep_bytes;
    for (const SigRun &r : s.runs) {
        if (rem == 0) break;
        if (rem >= r.n * r.bytes) {
            n += static_cast<std::int64_t>(r.n);
            rem -= r.n * r.bytes;
        } else {
            if (rem % r.bytes != 0) return -1;
            n += static_cast<std::int64_t>(rem / r.bytes);
            rem = 0;
        }
    }
    return rem == 0 ? n : -1;
}

size_t bytes_of(const Signature &s, size_t elements) {
    const size_t per_element = s.elements();
    if (per_element == 0) return 0;
    size_t bytes = (elements / per_element) * s.bytes();
    size_t rem = elements % per_element;
    const size_t per_rep = s.rep_elements();
    bytes += (rem / per_rep) * s.rep_bytes();
    rem %= per_rep;
    for (const SigRun &r : s.runs) {
        const size_t take = std::min(rem, r.n);
        bytes += take * r.bytes;
        rem -= take;
        if (rem == 0) break;
    }
    return bytes;
}

}  // namespace ftmpi::dt
