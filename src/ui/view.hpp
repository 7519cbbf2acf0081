// How the whole app is being shown right now: presenter mode and UI scale, read by every panel.
#pragma once

namespace m2m::ui {

struct View {
    bool presenter = false;  ///< H: hide the controls, keep the scene and the readouts
    float scale = 1.0f;      ///< 1.0 to 3.0; fonts are rebuilt at this size
    static constexpr float min_scale = 1.0f;
    static constexpr float max_scale = 3.0f;
};

/// The one view state of the app (the app writes it; panels read it).
View& view();

}  // namespace m2m::ui
