// What the app shares with every lesson: how the app is shown, what is on screen, the student's runs. The app owns one Context and hands it to each lesson
// when catalog.cpp builds them; a headless test builds its own. Nothing here is a static: two
// apps (or two tests) never see each other's runs.
#pragma once

#include "lessons/run_log.hpp"
#include "ui/item_registry.hpp"
#include "ui/view.hpp"

namespace m2m::lessons {

struct Context {
    ui::View view;            ///< presenter, scale, theme, the opaque filler: the app writes it, lessons read it
    ui::ItemRegistry items;   ///< what this frame drew, by name (for window tests); cleared every frame
    RunLog run_log;           ///< the student's finished runs: Lessons 1 to 3 record, Explain it back reads
    /// The keys' scroll this frame (Down or Page Down +1, Up or Page Up -1): the lesson's scene moves
    /// by most of its height, so the words below a drawing are reached without a mouse.
    int scene_scroll = 0;
};

}  // namespace m2m::lessons
