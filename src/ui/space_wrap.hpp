// Wrapped text that breaks only at spaces: ImGui's own wrapping also breaks after '.' and ','
// and so splits "3.14e23" or "2,048" across two lines. Line breaks are kept per string until
// its text or the width changes, so a frame measures nothing it measured before.
#pragma once

#include <imgui.h>

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace m2m::lessons {

class SpaceWrap {
public:
    /// `s` in `colour`, wrapped to the width left on the current line's row; lines of one
    /// paragraph sit a font height apart, as ImGui's own wrapped text does.
    void text(ImU32 colour, const std::string& s);
    /// text() after a bullet, every line indented under the first.
    void bullet(ImU32 colour, const std::string& s);

private:
    struct Lines {
        float width = -1;
        std::size_t hash = 0;
        std::vector<std::pair<std::size_t, std::size_t>> spans;  ///< [begin, end) byte offsets
    };
    std::unordered_map<const std::string*, Lines> m_lines;
};

}  // namespace m2m::lessons
