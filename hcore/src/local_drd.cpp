#include "local_drd.hpp"

#include <string>

namespace harness::hcore {

Result<Bytes> call_local_drd(const harness_host_api *host, const char *function, const Packer &args) {
    if (!HARNESS_HOST_HAS(host, call_local)) return make_error(HARNESS_ERR_NOT_SUPPORTED, "no call_local in this host");
    harness_buf out{};
    char err[256] = {};
    int rc = host->call_local(host->host, "vm", "drd", function, args.view().data(), args.view().size(), &out, err,
                              sizeof err);
    Bytes reply(out.data, out.data + out.len);
    harness_buf_free(&out);
    if (rc != HARNESS_OK)
        return make_error(static_cast<harness_status>(rc), std::string("vm/drd ") + function + ": " + err);
    return reply;
}

}  // namespace harness::hcore
