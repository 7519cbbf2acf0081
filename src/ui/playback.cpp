// Playback of a computed timeline: the one clock every lesson animates with.
#include "ui/playback.hpp"

#include <algorithm>

namespace m2m::ui {

void Playback::set_timeline(double end, std::vector<double> boundaries, double units_per_second) {
    m_end = std::max(end, 0.0);
    m_boundaries = std::move(boundaries);
    std::sort(m_boundaries.begin(), m_boundaries.end());
    m_rate = units_per_second > 0 ? units_per_second : 1.0;
    m_cursor = std::min(m_cursor, m_end);
    m_passes = 0;
}

void Playback::advance(double dt_s) {
    if (!m_playing || dt_s <= 0) return;
    m_cursor += dt_s * m_rate * m_speed;
    if (m_cursor >= m_end) {
        ++m_passes;
        if (m_loop) {
            m_cursor = 0;
        } else {
            m_cursor = m_end;
            m_playing = false;
        }
    }
}

void Playback::toggle() { m_playing ? pause() : play(); }

void Playback::play() {
    if (finished()) m_cursor = 0;
    m_playing = m_end > 0;
}

void Playback::pause() { m_playing = false; }

void Playback::step() {
    m_playing = false;
    const auto next = std::upper_bound(m_boundaries.begin(), m_boundaries.end(), m_cursor + 1e-9 * (m_end + 1));
    m_cursor = next == m_boundaries.end() ? m_end : std::min(*next, m_end);
    if (m_cursor >= m_end && m_end > 0) ++m_passes;
}

void Playback::reset() {
    m_playing = false;
    m_cursor = 0;
}

void Playback::faster() { set_speed(m_speed * 2); }
void Playback::slower() { set_speed(m_speed / 2); }
void Playback::set_speed(double speed) { m_speed = std::clamp(speed, min_speed, max_speed); }

}  // namespace m2m::ui
