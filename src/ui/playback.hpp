// The playback cursor every lesson shares: run, pause, step, reset and speed work the same way.
#pragma once

#include <vector>

namespace m2m::ui {

/// Moves a cursor through a result that the core computed once. Frame time moves the
/// cursor; it never changes the result.
class Playback {
public:
    /// A new result: its end, the times at which something starts or ends (for Step), and
    /// how many result units one second of playback covers at speed 1x.
    void set_timeline(double end, std::vector<double> boundaries, double units_per_second);
    void advance(double dt_s);

    void toggle();  ///< Run / Pause (Run after the end starts again from zero)
    void play();
    void pause();
    void step();    ///< pauses and jumps to the next start or end
    void reset();   ///< back to zero, paused
    void faster();  ///< doubles the speed, up to max_speed
    void slower();
    void set_speed(double speed);
    void set_loop(bool loop) { m_loop = loop; }

    double cursor() const { return m_cursor; }
    double end() const { return m_end; }
    bool playing() const { return m_playing; }
    bool finished() const { return m_cursor >= m_end; }
    double speed() const { return m_speed; }
    double units_per_second() const { return m_rate; }
    /// Times the cursor has reached the end since the last set_timeline() (a loop's wraps too):
    /// whether this result has played through at least once.
    int passes() const { return m_passes; }

    static constexpr double min_speed = 0.125;
    static constexpr double max_speed = 64.0;

private:
    double m_cursor = 0, m_end = 0, m_rate = 1, m_speed = 1;
    bool m_playing = false, m_loop = false;
    int m_passes = 0;
    std::vector<double> m_boundaries;
};

}  // namespace m2m::ui
