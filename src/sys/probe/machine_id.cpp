#include "sys/probe/machine_id.hpp"
#include "sys/probe/probes.hpp"

#include <glib.h>

namespace bootbench::sys {

std::optional<std::string> machine_id(const std::filesystem::path& machine_id_file,
                                      const std::string& experiment) {
    std::optional<std::string> id = read_probe(machine_id_file);
    if (!id || id->empty())
        return std::nullopt;
    std::string text = "bootbench-machine\n" + *id + "\n" + experiment;
    g_autofree char* hex = g_compute_checksum_for_data(
        G_CHECKSUM_SHA256, reinterpret_cast<const guchar*>(text.data()), text.size());
    return std::string(hex).substr(0, kMachineIdDigits);
}

std::string random_machine_id() {
    g_autofree char* uuid = g_uuid_string_random();
    std::string out;
    for (const char* p = uuid; *p; ++p)
        if (*p != '-')
            out += *p;
    return out;
}

} // namespace bootbench::sys
