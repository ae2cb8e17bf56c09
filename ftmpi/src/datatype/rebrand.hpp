// Subarray and darray are built from simpler constructors; the result then
// takes their combiner and names only the user's old type as its child.
#pragma once

#include "type.hpp"

namespace ftmpi::dt {

inline Type *rebrand(Type *built, Combiner combiner, Type *old) {
    built->combiner = combiner;
    retain(old);
    for (Type *child : built->types) release(child);
    built->types = {old};
    built->ints.clear();
    built->aints.clear();
    built->large_counts.clear();
    return built;
}

}  // namespace ftmpi::dt
