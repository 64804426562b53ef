#include "core/experiment/toml_depth.hpp"

#include "core/base/error.hpp"

#include <vector>

namespace bootbench::core {

namespace {

// One pass over the text, strings and comments skipped. A key is read at
// the start of a line (outside brackets) and after `{` or `,` in an inline
// table; its dots count as levels. `[` and `{` in a value count as levels.
class DepthScan {
  public:
    DepthScan(std::string_view text, const std::string& file) : t_(text), file_(file) {}

    void run() {
        while (i_ < t_.size())
            step(t_[i_]);
    }

  private:
    struct Open {
        char bracket;
        int depth;
    };

    void step(char c) {
        if (c == '"' || c == '\'')
            return skip_string(c);
        if (c == '#')
            return skip_comment();
        if (c == '\n')
            return newline();
        if (c == '[' && reading_key_ && at_line_start_ && open_.empty())
            return header();
        if (reading_key_)
            key_char(c);
        else
            value_char(c);
        advance();
    }

    void key_char(char c) {
        at_line_start_ = at_line_start_ && (c == ' ' || c == '\t' || c == '\r');
        if (c == '.')
            check(++depth_);
        if (c == '=')
            reading_key_ = false, check(++depth_);
    }

    void value_char(char c) {
        if (c == '[' || c == '{') {
            open_.push_back({c, depth_ + 1});
            check(++depth_);
            reading_key_ = c == '{';
        } else if ((c == ']' || c == '}') && !open_.empty()) {
            open_.pop_back();
            depth_ = open_.empty() ? table_depth_ : open_.back().depth;
        } else if (c == ',' && !open_.empty() && open_.back().bracket == '{') {
            depth_ = open_.back().depth;
            reading_key_ = true;
        }
    }

    // `[a.b.c]` or `[[a.b]]`: the table's depth is its parts.
    void header() {
        int parts = 1;
        while (i_ < t_.size() && t_[i_] == '[')
            advance();
        while (i_ < t_.size() && t_[i_] != ']' && t_[i_] != '\n') {
            if (t_[i_] == '"' || t_[i_] == '\'') {
                skip_string(t_[i_]);
                continue;
            }
            if (t_[i_] == '.')
                check(++parts);
            advance();
        }
        if (i_ < t_.size() && t_[i_] == ']')
            advance();
        table_depth_ = depth_ = parts;
        reading_key_ = false;
    }

    void newline() {
        advance();
        ++line_, col_ = 1;
        if (open_.empty())
            reading_key_ = at_line_start_ = true, depth_ = table_depth_;
    }

    void skip_comment() {
        while (i_ < t_.size() && t_[i_] != '\n')
            advance();
    }

    void skip_string(char quote) {
        bool triple = t_.substr(i_, 3) == std::string(3, quote);
        size_t n = triple ? 3 : 1;
        for (size_t k = 0; k < n; ++k)
            advance();
        while (i_ < t_.size() && t_.substr(i_, n) != std::string(n, quote)) {
            if (t_[i_] == '\n' && !triple)
                return; // unterminated: toml++ says so
            if (t_[i_] == '\\' && quote == '"')
                advance();
            if (i_ < t_.size() && t_[i_] == '\n')
                ++line_, col_ = 0;
            advance();
        }
        for (size_t k = 0; k < n && i_ < t_.size(); ++k)
            advance();
        at_line_start_ = false;
    }

    void advance() { ++i_, ++col_; }

    void check(int depth) const {
        if (depth > kMaxTomlDepth)
            throw input_error(file_ + ":" + std::to_string(line_) + ":" + std::to_string(col_) +
                              ": nesting deeper than " + std::to_string(kMaxTomlDepth) +
                              " levels (tables, dotted keys, arrays); not an experiment file?");
    }

    std::string_view t_;
    const std::string& file_;
    size_t i_ = 0;
    int line_ = 1, col_ = 1;
    std::vector<Open> open_;
    int table_depth_ = 0, depth_ = 0;
    bool reading_key_ = true, at_line_start_ = true;
};

} // namespace

void check_toml_depth(std::string_view text, const std::string& file_name) {
    DepthScan(text, file_name).run();
}

} // namespace bootbench::core
