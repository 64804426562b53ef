#pragma once
// A small command-line parser: declared options, positional arguments, and a
// usage error (exit 2) for anything it does not know.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bootbench::cli {

enum class Arity { flag, value, repeated };

struct OptionSpec {
    std::string name; // without the leading "--"
    Arity arity;
    std::string help;
};

class Args {
public:
    // Throws bootbench::Error (exit 2) naming the command and the bad argument.
    Args(const std::string& command, const std::vector<std::string>& argv,
         const std::vector<OptionSpec>& specs);

    bool flag(const std::string& name) const { return flags_.count(name) > 0; }
    std::optional<std::string> value(const std::string& name) const;
    std::vector<std::string> values(const std::string& name) const;
    const std::vector<std::string>& positional() const { return positional_; }
    // Exactly `n` positional arguments, or a usage error naming them.
    void expect_positional(size_t n, const std::string& what) const;

private:
    std::string command_;
    std::map<std::string, std::vector<std::string>> values_;
    std::map<std::string, bool> flags_;
    std::vector<std::string> positional_;
};

} // namespace bootbench::cli
