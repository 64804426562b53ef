#include "core/base/regex.hpp"

#include "core/base/error.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace bootbench::core {

namespace {

// Measured with bench/regex_limits.cpp (docs/performance.md): a search that
// hits the match limit gives up within milliseconds; every ordinary metric
// regex on an ordinary line needs a few hundred steps.
constexpr uint32_t kMatchLimit = 1'000'000;
constexpr uint32_t kDepthLimit = 100'000;
constexpr uint32_t kHeapLimitKiB = 64 * 1024;

template <typename T, void (*Free)(T*)> struct Deleter {
    void operator()(T* p) const { Free(p); }
};
using Code = std::unique_ptr<pcre2_code, Deleter<pcre2_code, pcre2_code_free>>;
using CompileContext = std::unique_ptr<pcre2_compile_context,
                                       Deleter<pcre2_compile_context, pcre2_compile_context_free>>;
using MatchContext =
    std::unique_ptr<pcre2_match_context, Deleter<pcre2_match_context, pcre2_match_context_free>>;
using MatchData =
    std::unique_ptr<pcre2_match_data, Deleter<pcre2_match_data, pcre2_match_data_free>>;

std::string error_text(int code) {
    PCRE2_UCHAR buf[256];
    int n = pcre2_get_error_message(code, buf, sizeof buf);
    if (n < 0)
        return "PCRE2 error " + std::to_string(code);
    return std::string(reinterpret_cast<const char*>(buf), static_cast<size_t>(n));
}

Code compile(std::string_view pattern) {
    if (pattern.size() > kMaxRegexLength)
        throw input_error("it is " + std::to_string(pattern.size()) + " bytes long, more than " +
                          std::to_string(kMaxRegexLength));
    CompileContext cc(pcre2_compile_context_create(nullptr));
    if (!cc)
        throw Error("out of memory compiling a regular expression");
    pcre2_set_parens_nest_limit(cc.get(), kMaxRegexNesting);
    int err = 0;
    PCRE2_SIZE offset = 0;
    Code code(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data() ? pattern.data() : ""),
                            pattern.size(), 0, &err, &offset, cc.get()));
    if (!code)
        throw input_error(error_text(err) + " at offset " + std::to_string(offset));
    return code;
}

MatchContext limited_context() {
    MatchContext mc(pcre2_match_context_create(nullptr));
    if (!mc)
        throw Error("out of memory preparing a regular expression");
    pcre2_set_match_limit(mc.get(), kMatchLimit);
    pcre2_set_depth_limit(mc.get(), kDepthLimit);
    pcre2_set_heap_limit(mc.get(), kHeapLimitKiB);
    return mc;
}

} // namespace

struct Regex::Impl {
    Code code;
    MatchContext context;
    uint32_t captures = 0;
};

Regex::Regex(std::string_view pattern) : impl_(std::make_unique<Impl>()) {
    impl_->code = compile(pattern);
    impl_->context = limited_context();
    pcre2_pattern_info(impl_->code.get(), PCRE2_INFO_CAPTURECOUNT, &impl_->captures);
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

uint32_t Regex::capture_count() const {
    return impl_->captures;
}

RegexMatch Regex::search(std::string_view subject, size_t start) const {
    return run(subject, start, 0);
}

bool Regex::full_match(std::string_view subject) const {
    return run(subject, 0, PCRE2_ANCHORED | PCRE2_ENDANCHORED).outcome ==
           RegexMatch::Outcome::match;
}

RegexMatch Regex::run(std::string_view subject, size_t start, uint32_t options) const {
    MatchData md(pcre2_match_data_create_from_pattern(impl_->code.get(), nullptr));
    if (!md)
        throw Error("out of memory matching a regular expression");
    const char* data = subject.data() ? subject.data() : "";
    int rc = pcre2_match(impl_->code.get(), reinterpret_cast<PCRE2_SPTR>(data), subject.size(),
                         start, options, md.get(), impl_->context.get());
    RegexMatch m;
    if (rc == PCRE2_ERROR_NOMATCH)
        return m;
    if (rc < 0) {
        m.outcome = RegexMatch::Outcome::gave_up;
        m.why = error_text(rc);
        return m;
    }
    m.outcome = RegexMatch::Outcome::match;
    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md.get());
    for (uint32_t i = 0; i <= impl_->captures; ++i)
        m.groups.push_back(ov[2 * i] == PCRE2_UNSET
                               ? std::string_view()
                               : subject.substr(ov[2 * i], ov[2 * i + 1] - ov[2 * i]));
    return m;
}

} // namespace bootbench::core
