#pragma once
// JSON text to a document, as bootbench's readers do it: a syntax error is a
// bootbench::Error naming the file.
#include "core/error.hpp"
#include "fuzz_contract.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace bootbench::fuzz {

inline nlohmann::json parse_json(const std::string& text, const std::string& where) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw input_error(where + ": not valid JSON: " + e.what());
    }
}

} // namespace bootbench::fuzz
