// The categories: one per part of libftmpi whose variables MPI_T shows, all
// under the root category "ftmpi". The variables' categories are in their
// tables (cvars.cpp, pvars.cpp); the categories never change, so
// MPI_T_category_changed always answers 0. No category holds events.
#include "internal/pmpi.hpp"
#include "mpit/mpit.hpp"

#include <array>
#include <cstring>
#include <vector>

namespace ftmpi::mpit {
namespace {

struct Described {
    const char *name;
    const char *desc;
};

constexpr std::array<Described, static_cast<std::size_t>(Category::count)> categories{{
    {"ftmpi", "FT-MPI (libftmpi): every category below"},
    {"ftmpi_logging", "libftmpi's messages on stderr"},
    {"ftmpi_job", "the job as the launcher describes it to each rank, and process creation"},
    {"ftmpi_placement", "CPU binding, output buffering and the address a rank listens on"},
    {"ftmpi_p2p_transport", "point-to-point: the matching engine, the comm drivers, TCP"},
    {"ftmpi_shared_memory", "the shared-memory comm driver"},
    {"ftmpi_fault_tolerance", "failure detection, communicator modes, recovery (FT-MPI and ULFM)"},
    {"ftmpi_collectives", "the collective algorithms' selection"},
}};

int category_count() {
    return static_cast<int>(categories.size());
}

std::vector<int> cvars_of(Category c) {
    std::vector<int> found;
    for (int i = 0; i < cvar_count(); ++i)
        if (cvar_info(i).category == c) found.push_back(i);
    return found;
}

std::vector<int> pvars_of(Category c) {
    std::vector<int> found;
    for (int i = 0; i < pvar_count(); ++i)
        if (pvar(i).category == c) found.push_back(i);
    return found;
}

std::vector<int> subcategories_of(Category c) {
    std::vector<int> found;
    if (c == Category::root)
        for (int i = 1; i < category_count(); ++i) found.push_back(i);
    return found;
}

// The first `len` of `all` into indices.
int put_indices(const std::vector<int> &all, int len, int indices[]) {
    if (len < 0 || (len > 0 && indices == nullptr)) return MPI_T_ERR_INVALID;
    for (std::size_t i = 0; i < all.size() && i < static_cast<std::size_t>(len); ++i) indices[i] = all[i];
    return MPI_SUCCESS;
}

template <typename Of>
int get_members(int cat_index, int len, int indices[], Of of) {
    return call([&] {
        if (!valid_index(cat_index, category_count())) return MPI_T_ERR_INVALID_INDEX;
        return put_indices(of(static_cast<Category>(cat_index)), len, indices);
    });
}

}  // namespace

extern "C" {

int MPI_T_category_get_num(int *num_cat) noexcept {
    return call([&] {
        if (num_cat == nullptr) return MPI_T_ERR_INVALID;
        *num_cat = category_count();
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_category_get_num)

int MPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                            int *num_pvars, int *num_categories) noexcept {
    return call([&] {
        if (!valid_index(cat_index, category_count())) return MPI_T_ERR_INVALID_INDEX;
        const auto c = static_cast<Category>(cat_index);
        copy_string(categories[static_cast<std::size_t>(cat_index)].name, name, name_len);
        copy_string(categories[static_cast<std::size_t>(cat_index)].desc, desc, desc_len);
        if (num_cvars) *num_cvars = static_cast<int>(cvars_of(c).size());
        if (num_pvars) *num_pvars = static_cast<int>(pvars_of(c).size());
        if (num_categories) *num_categories = static_cast<int>(subcategories_of(c).size());
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_category_get_info)

int MPI_T_category_get_index(const char *name, int *cat_index) noexcept {
    return call([&] {
        if (name == nullptr || cat_index == nullptr) return MPI_T_ERR_INVALID;
        for (int i = 0; i < category_count(); ++i)
            if (std::strcmp(categories[static_cast<std::size_t>(i)].name, name) == 0) {
                *cat_index = i;
                return MPI_SUCCESS;
            }
        return MPI_T_ERR_INVALID_NAME;
    });
}
FTMPI_PMPI(T_category_get_index)

int MPI_T_category_get_cvars(int cat_index, int len, int indices[]) noexcept {
    return get_members(cat_index, len, indices, cvars_of);
}
FTMPI_PMPI(T_category_get_cvars)

int MPI_T_category_get_pvars(int cat_index, int len, int indices[]) noexcept {
    return get_members(cat_index, len, indices, pvars_of);
}
FTMPI_PMPI(T_category_get_pvars)

int MPI_T_category_get_categories(int cat_index, int len, int indices[]) noexcept {
    return get_members(cat_index, len, indices, subcategories_of);
}
FTMPI_PMPI(T_category_get_categories)

int MPI_T_category_get_events(int cat_index, int len, int indices[]) noexcept {
    return get_members(cat_index, len, indices, [](Category) { return std::vector<int>{}; });
}
FTMPI_PMPI(T_category_get_events)

int MPI_T_category_get_num_events(int cat_index, int *num_events) noexcept {
    return call([&] {
        if (!valid_index(cat_index, category_count())) return MPI_T_ERR_INVALID_INDEX;
        if (num_events == nullptr) return MPI_T_ERR_INVALID;
        *num_events = 0;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_category_get_num_events)

// The categories are fixed for the life of the process.
int MPI_T_category_changed(int *update_number) noexcept {
    return call([&] {
        if (update_number == nullptr) return MPI_T_ERR_INVALID;
        *update_number = 0;
        return MPI_SUCCESS;
    });
}
FTMPI_PMPI(T_category_changed)

}  // extern "C"

}  // namespace ftmpi::mpit
