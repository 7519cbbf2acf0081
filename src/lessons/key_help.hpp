// The keys every lesson answers, in the window ? opens: it fits the display at any scale, its
// descriptions wrap, and the keys that scroll a scene scroll it while it is open.
#pragma once

namespace m2m::lessons {

/// Draws the keyboard window while `*open`; its close box clears `*open`. `scroll` is this frame's
/// Down/Page Down (+1) or Up/Page Up (-1), 0 for none: most of a page of rows each.
void draw_key_help(bool* open, int scroll);

}  // namespace m2m::lessons
