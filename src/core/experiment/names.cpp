#include "core/experiment/names.hpp"

#include "core/base/regex.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace bootbench::core {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

bool is_valid_name(const std::string& name) {
    static const Regex re("[a-z0-9][a-z0-9._-]{0,63}");
    return re.full_match(name) && name.find("..") == std::string::npos;
}

bool is_valid_image_reference(const std::string& ref) {
    auto allowed = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("._/:@-").find(c) != std::string_view::npos;
    };
    return !ref.empty() && ref.size() <= 255 && std::isalnum(static_cast<unsigned char>(ref[0])) &&
           std::all_of(ref.begin(), ref.end(), allowed);
}

bool is_stoppable_unit_name(const std::string& name) {
    bool chars_ok = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::string_view(":_.@-\\").find(c) != std::string_view::npos;
    });
    return chars_ok && name.size() <= 255 &&
           (ends_with(name, ".timer") || ends_with(name, ".service") || ends_with(name, ".path") ||
            ends_with(name, ".socket"));
}

} // namespace bootbench::core
