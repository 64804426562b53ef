#pragma once
// JSON text to a document, as bootbench's readers do it (sys/store/state_store,
// sys/store/result_reader): bounded nesting and size first, then any JSON error is
// a bootbench::Error naming the file.
#include "core/base/error.hpp"
#include "core/base/json_bounds.hpp"
#include "fuzz_contract.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace bootbench::fuzz {

inline nlohmann::json parse_json(const std::string& text, const std::string& where) {
    try {
        return core::parse_bounded_json(text, where);
    } catch (const nlohmann::json::exception& e) {
        throw input_error(where + ": not valid JSON: " + e.what());
    }
}

} // namespace bootbench::fuzz
