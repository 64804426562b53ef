#pragma once
// Checked reads from nlohmann::json for files bootbench wrote itself (state,
// results): a wrong or missing field is an error that names the file and the
// field, never a crash or a default that hides corruption.
#include "core/base/error.hpp"
#include "core/base/string_table.hpp"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::core {

class JsonReader {
public:
    JsonReader(const nlohmann::json& j, std::string where) : j_(j), where_(std::move(where)) {}

    const nlohmann::json& raw() const { return j_; }
    bool has(const char* key) const { return j_.is_object() && j_.contains(key) && !j_[key].is_null(); }
    std::string str(const char* key) const { return get(key, &nlohmann::json::is_string, "a string").get<std::string>(); }
    std::string str_or(const char* key, const std::string& fallback) const {
        return has(key) ? str(key) : fallback;
    }
    long long integer(const char* key) const {
        return get(key, &nlohmann::json::is_number_integer, "an integer").get<long long>();
    }
    double number(const char* key) const { return get(key, &nlohmann::json::is_number, "a number").get<double>(); }
    bool boolean(const char* key) const { return get(key, &nlohmann::json::is_boolean, "a boolean").get<bool>(); }
    const nlohmann::json& array(const char* key) const { return get(key, &nlohmann::json::is_array, "an array"); }
    const nlohmann::json& object(const char* key) const { return get(key, &nlohmann::json::is_object, "an object"); }
    std::vector<std::string> strings(const char* key) const {
        std::vector<std::string> out;
        for (const auto& v : array(key)) {
            if (!v.is_string())
                fail(std::string("field '") + key + "' must be an array of strings");
            out.push_back(v.get<std::string>());
        }
        return out;
    }
    JsonReader child(const nlohmann::json& j, const std::string& name) const { return {j, where_ + ": " + name}; }
    // A string field that must be one of `names`.
    template <typename E, size_t N>
    E choice(const char* key, const Named<E> (&names)[N]) const {
        std::string s = str(key);
        if (std::optional<E> value = value_of(names, s))
            return *value;
        fail(std::string("field '") + key + "' has an unknown value '" + s + "'");
    }
    [[noreturn]] void fail(const std::string& what) const { throw Error(where_ + ": " + what); }

private:
    const nlohmann::json& get(const char* key, bool (nlohmann::json::*ok)() const noexcept,
                              const char* expected) const {
        if (!j_.is_object() || !j_.contains(key))
            fail(std::string("missing field '") + key + "'");
        const nlohmann::json& v = j_[key];
        if (!(v.*ok)())
            fail(std::string("field '") + key + "' must be " + expected);
        return v;
    }

    const nlohmann::json& j_;
    std::string where_;
};

// The members of object `j` whose keys are not in `known`: what a record that
// another version wrote carries beyond what this one reads, kept to be
// written back as it was.
template <size_t N> nlohmann::json unknown_keys(const nlohmann::json& j, const char* const (&known)[N]) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : j.items())
        if (std::find(std::begin(known), std::end(known), key) == std::end(known))
            out[key] = value;
    return out;
}

} // namespace bootbench::core
