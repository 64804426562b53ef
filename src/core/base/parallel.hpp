#pragma once
// Runs independent pieces of work on several threads, with results that do
// not depend on the threads: each index is done exactly once, and the first
// failing index's exception (the one a sequential loop would meet) is rethrown.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace bootbench::core {

template <typename Work>
void parallel_indices(size_t count, size_t workers, Work&& work) {
    std::vector<std::exception_ptr> errors(count);
    std::atomic<size_t> next{0};
    auto loop = [&] {
        for (size_t i; (i = next++) < count;) {
            try {
                work(i);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    std::vector<std::thread> threads;
    for (size_t w = 1; w < std::max<size_t>(workers, 1); ++w)
        threads.emplace_back(loop);
    loop();
    for (auto& t : threads)
        t.join();
    for (const auto& e : errors)
        if (e)
            std::rethrow_exception(e);
}

inline size_t cores() { return std::max(1u, std::thread::hardware_concurrency()); }

} // namespace bootbench::core
