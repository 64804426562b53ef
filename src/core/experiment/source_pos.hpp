#pragma once

namespace bootbench::core {

// Where a value came from in the experiment file, for FILE:LINE:COL messages.
struct SourcePos {
    int line = 0;
    int column = 0;
};

} // namespace bootbench::core
