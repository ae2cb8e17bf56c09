#include "vm_service_kit/member_directory.hpp"

#include <cstddef>

namespace harness::vmsvc {

std::optional<MemberEntry> MemberDirectory::find(const std::string &id) {
    auto members = list();
    if (!members) return std::nullopt;
    for (auto &m : *members)
        if (m.id == id) return m;
    return std::nullopt;
}

Result<std::vector<MemberEntry>> HostMemberDirectory::list() {
    if (!HARNESS_HOST_HAS(host_, list_members))
        return make_error(HARNESS_ERR_NOT_SUPPORTED, "the host offers no list_members (ABI 1.1)");
    std::vector<MemberEntry> out;
    int status = host_->list_members(
        host_->host,
        [](void *user, const harness_member_info *m) {
            if (!m || !m->id) return;
            auto &v = *static_cast<std::vector<MemberEntry> *>(user);
            try {
                v.push_back(MemberEntry{m->id, m->address ? m->address : "", m->state == HARNESS_MEMBER_ALIVE});
            } catch (...) {  // never let an exception cross the C callback
            }
        },
        &out);
    if (status != HARNESS_OK) return make_error(status, "list_members failed");
    return out;
}

std::string HostMemberDirectory::self_id() {
    const char *id = host_ && host_->member_id ? host_->member_id(host_->host) : nullptr;
    return id ? id : "";
}

}  // namespace harness::vmsvc
