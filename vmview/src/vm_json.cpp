#include <harness/vmview/vm_state.hpp>

namespace harness::hostinfo {

nlohmann::json to_json(const VmState &st) {
    nlohmann::json j;
    j["via"] = st.via;
    j["members"] = nlohmann::json::array();
    for (const auto &m : st.members)
        j["members"].push_back({{"id", m.id},
                                {"address", m.address},
                                {"state",
                                 m.alive      ? "alive"
                                     : m.left ? "left"
                                              : "failed"},
                                {"silent_ms", m.silent_ms}});
    j["services"] = nlohmann::json::array();
    for (const auto &[name, ids] : st.services) j["services"].push_back({{"name", name}, {"members", ids}});
    j["plugins"] = nlohmann::json::object();
    for (const auto &[id, list] : st.plugins) j["plugins"][id] = list;
    nlohmann::json drd;
    if (st.drd.known) {
        drd = {{"leader", st.drd.leader},
               {"voters", st.drd.voters},
               {"standbys", st.drd.standbys},
               {"commit_index", st.drd.commit_index}};
    }
    j["drd"] = drd;
    j["notes"] = st.notes;
    return j;
}

}  // namespace harness::hostinfo
