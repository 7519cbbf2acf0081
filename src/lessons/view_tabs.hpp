// The pair of tabs at the top of Lessons 1 and 3 (the lesson's own view, and its real-scale
// view), and the controls-beside-scene layout every lesson panel and real-scale view is drawn in.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>

#include "ui/item_registry.hpp"
#include "ui/view.hpp"

namespace m2m::lessons {

/// Which tab to bring forward on the next frame; none leaves the student's choice alone.
enum class TabRequest { none, own, scale };

struct ViewTabs {
    const char* bar_id;       ///< the tab bar's ImGui id
    const char* own_label;    ///< the lesson's own view, e.g. "Layer by layer"
    const char* own_hook;     ///< its test hook (noted in the item registry)
    const char* scale_label;  ///< the real-scale view, e.g. "Real scale: a frontier model"
    const char* scale_hook;
};

/// Draws the two tabs and returns true while the real-scale one is shown. A request is
/// carried out once and then cleared.
bool draw_view_tabs(ui::ItemRegistry& items, const ViewTabs& tabs, TabRequest& request);

/// The tab pair as the view in its real-scale tab keeps it: what was asked for, what shows.
class ScaleTab {
public:
    explicit ScaleTab(const ViewTabs& tabs) : m_tabs(tabs) {}
    /// Draws the two tabs; true while the real-scale one is shown (the view then draws the
    /// whole lesson area).
    bool draw(ui::ItemRegistry& items) { return m_open = draw_view_tabs(items, m_tabs, m_select); }
    /// Selects the real-scale tab (true) or the lesson's own (false) from the next frame on.
    void open(bool on) { m_select = on ? TabRequest::scale : TabRequest::own; }
    bool is_open() const { return m_open; }
    /// Whether the real-scale tab is (or, with a request pending, is about to be) the one shown:
    /// what a saved state records.
    bool open_or_opening() const { return m_select == TabRequest::none ? m_open : m_select == TabRequest::scale; }

private:
    ViewTabs m_tabs;
    TabRequest m_select = TabRequest::none;
    bool m_open = false;
};

/// The controls in a bordered pane `controls_width` wide on the left (left out in presenter
/// mode) and the scene beside it, with `scene_flags`: child windows "<id>_controls" and
/// "<id>_scene". The default pads the scene, so no letter touches the edge it is clipped at.
void controls_beside_scene(const ui::View& view, const std::string& id, float controls_width,
                           const std::function<void()>& controls, const std::function<void()>& scene,
                           ImGuiWindowFlags scene_flags = ImGuiWindowFlags_AlwaysUseWindowPadding);
/// The controls pane's width: `em` font sizes, but at most `share` of the width available.
float controls_width(float em, float share);

}  // namespace m2m::lessons
