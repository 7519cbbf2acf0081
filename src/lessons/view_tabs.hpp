// The pair of tabs at the top of Lessons 1 and 3 (the lesson's own view, and its real-scale
// view), and the controls-beside-scene layout every lesson panel and real-scale view is drawn in.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>

#include "lessons/context.hpp"
#include "ui/item_registry.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

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
    /// whole lesson area). In presenter view the tabs are left out and the choice stands.
    bool draw(Context& ctx);
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

/// The layout rule every lesson follows: the scene takes the window, the controls sit in a
/// bordered pane on the left, `controls_width` wide times the student's View::controls_share
/// (a drag handle between the two panes sets it), folded to a thin strip while
/// View::controls_collapsed (key C), and left out in presenter view. Child windows
/// "<id>_controls" and "<id>_scene" (`scene_flags`; the default pads the scene, so no letter
/// touches the edge it is clipped at).
///
/// The scene's rectangle is set as "scene" in ctx.items before `scene` runs (what --log-state
/// prints and the layout tests measure); a panel whose picture is smaller sets its own
/// (ctx.items.set("scene", ...)) inside `scene`, and the later one wins. Figures a lesson
/// measures go in with ctx.items.measure(name, value), e.g. Lesson 1's "neuron_radius_px".
///
/// `presenter_strip`, when given, draws in presenter view as one compact row above the scene:
/// the few controls a teacher needs there (the Predict box, a strategy choice).
///
/// `footer`, when given, draws the playback rows it is asked for after the controls, below a
/// separator. When the controls and it overflow the pane, it stays pinned at the pane's foot and
/// only the controls above it scroll; on a pane under ten rows (1024x768 at 2.0) only its buttons
/// are pinned, and the rest (the speed) ends the controls that scroll. ctx.items measures
/// "controls_footer_pinned" (1 or 0) and "controls_buttons_pinned" (1 or 0), and sets
/// "controls_scroll" to the part of the pane the controls show in while either is pinned.
void controls_beside_scene(Context& ctx, const std::string& id, float controls_width,
                           const std::function<void()>& controls, const std::function<void()>& scene,
                           ImGuiWindowFlags scene_flags = ImGuiWindowFlags_AlwaysUseWindowPadding,
                           const std::function<void()>& presenter_strip = {},
                           const std::function<void(ui::PlaybackRows)>& footer = {});
/// The controls pane's width: `em` font sizes, but at most `share` of the width available, and at
/// least 9.5 font sizes (at most 45% of the row).
float controls_width(float em, float share);

/// Down / Up and Page Down / Page Up scroll the window being drawn by most of its height (a line
/// stays in sight), if it scrolls: the scene, and a scrolling pane inside it that holds words (a
/// lesson's reveal, a tab's list), which the keys did not reach.
void scroll_by_keys(const Context& ctx);

}  // namespace m2m::lessons
