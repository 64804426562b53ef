#include "cli/args.hpp"

#include "core/base/error.hpp"

namespace bootbench::cli {

Args::Args(const std::string& command, const std::vector<std::string>& argv,
           const std::vector<OptionSpec>& specs)
    : command_(command) {
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() < 3 || a.rfind("--", 0) != 0) {
            positional_.push_back(a);
            continue;
        }
        std::string name = a.substr(2), inline_value;
        bool has_inline = false;
        if (auto eq = name.find('='); eq != std::string::npos)
            inline_value = name.substr(eq + 1), name = name.substr(0, eq), has_inline = true;
        const OptionSpec* spec = nullptr;
        for (const auto& s : specs)
            if (s.name == name)
                spec = &s;
        if (!spec)
            throw input_error("bootbench " + command + ": unknown option '--" + name +
                              "' (see 'bootbench help " + command + "')");
        if (spec->arity == Arity::flag) {
            if (has_inline)
                throw input_error("bootbench " + command + ": --" + name + " takes no value");
            flags_[name] = true;
            continue;
        }
        if (!has_inline && i + 1 >= argv.size())
            throw input_error("bootbench " + command + ": --" + name + " needs a value");
        std::string v = has_inline ? inline_value : argv[++i];
        if (spec->arity == Arity::value && values_.count(name))
            throw input_error("bootbench " + command + ": --" + name + " given twice");
        values_[name].push_back(v);
    }
}

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end())
        return std::nullopt;
    return it->second.front();
}

std::vector<std::string> Args::values(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

void Args::expect_positional(size_t n, const std::string& what) const {
    if (positional_.size() != n)
        throw input_error("bootbench " + command_ + ": expected " + what + " (see 'bootbench help " +
                          command_ + "')");
}

} // namespace bootbench::cli
