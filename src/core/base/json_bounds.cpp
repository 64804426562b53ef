#include "core/base/json_bounds.hpp"

#include "core/base/error.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

// The deepest [ { nesting outside strings, stopping once past `limit`.
int nesting_depth(std::string_view text, int limit) {
    int depth = 0, deepest = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size() && deepest <= limit; ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

} // namespace

nlohmann::json parse_bounded_json(std::string_view text, const std::string& where) {
    if (text.size() > kMaxJsonBytes)
        throw input_error(where + ": " + std::to_string(text.size()) + " bytes, more than the " +
                          std::to_string(kMaxJsonBytes >> 20) +
                          " MiB a bootbench file may have; not a bootbench file?");
    if (nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth)
        throw input_error(where + ": nesting deeper than " + std::to_string(kMaxJsonDepth) +
                          " levels; not a bootbench file?");
    return nlohmann::json::parse(text);
}

} // namespace bootbench::core
