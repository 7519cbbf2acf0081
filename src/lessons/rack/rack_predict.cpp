// Lesson 2's predict, then reveal: the guesses before a send (which wire, how many times as long)
// and before a collective (which algorithm is fastest), G and N from the keyboard, presenter
// view's strip that keeps the question in the room, and the reveal once the run has played.
#include <imgui.h>

#include <algorithm>
#include <utility>

#include "lessons/rack/rack_common.hpp"
#include "lessons/rack/rack_panel.hpp"
#include "m2m/core/engine/text.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

using namespace rack_detail;

void RackPanel::guess_key(bool number) {
    if (guess_locked() || (m_mode != Mode::send && number)) return;  // a collective's guess has no number
    m_open_predict = true;
    if (m_mode == Mode::send && number) {
        m_focus_times = true;
    } else if (m_mode == Mode::send) {
        const std::optional<core::LinkType> next[] = {core::LinkType::nvlink, core::LinkType::infiniband, std::nullopt};
        m_guess.link = !m_guess.link ? next[0] : *m_guess.link == core::LinkType::nvlink ? next[1] : next[2];
    } else if (!number) {
        const auto choices = core::guess_choices(cluster().system(), m_collective.group, m_op);
        const auto at = std::find(choices.begin(), choices.end(), m_collective_guess.faster);
        m_collective_guess.faster = !m_collective_guess.faster ? (choices.empty() ? std::nullopt : std::optional(choices.front()))
                                    : at == choices.end() || at + 1 == choices.end() ? std::nullopt
                                                                                     : std::optional(*(at + 1));
    }
}

void RackPanel::target_key() {
    if (m_mode == Mode::all_reduce) {  // the next group size, after the largest the smallest
        const auto at = std::find(std::begin(group_sizes), std::end(group_sizes), m_group);
        set_group(at == std::end(group_sizes) || at + 1 == std::end(group_sizes) ? group_sizes[0] : *(at + 1));
        return;
    }
    // The receiver: in the sender's node, then the next node, then the next rack, then back.
    const core::Cluster& c = cluster();
    const Pick next = c.node_of(m_to) == c.node_of(m_from) ? Pick::other_node
                      : c.rack_of(m_to) == c.rack_of(m_from) ? Pick::other_rack
                                                             : Pick::same_node;
    pick(next);
}

void RackPanel::draw_predict() {
    // Optional and out of the way: closed until the student opens it (or presses G).
    const bool asked = m_mode == Mode::send && std::exchange(m_open_predict, false);  // G or N
    if (asked) ImGui::SetNextItemOpen(true);
    const bool open = ImGui::TreeNode("Predict first?");
    if (asked) ui::scroll_to_last_item();
    m_ctx.items.note("rack_predict_open");
    if (!open) return;
    ImGui::TextWrapped("Before you press Send: which wire will the tensor cross?");
    draw_link_guess();
    ImGui::TextWrapped("And how many times as long as the same send inside one node?");
    const ui::LabelFit times_label = ui::fit_label("\xc3\x97 as long##guess", 0.4f);
    ImGui::SetNextItemWidth(times_label.width);
    draw_times_guess(times_label.label.c_str());
    ui::label_focuses_field(times_label);
    ImGui::TreePop();
}

void RackPanel::draw_link_guess() {
    ImGui::BeginDisabled(guess_locked());
    int link = !m_guess.link ? 0 : *m_guess.link == core::LinkType::nvlink ? 1 : 2;
    const char* choices[] = {"no guess", "NVLink", "InfiniBand"};
    const char* hooks[] = {"guess_none", "guess_nvlink", "guess_infiniband"};
    for (int i = 0; i < 3; ++i) {
        if (i > 0) ui::same_line_if_fits(ui::radio_width(choices[i]));
        if (ImGui::RadioButton(choices[i], &link, i))
            m_guess.link = i == 0 ? std::nullopt : std::optional(i == 1 ? core::LinkType::nvlink : core::LinkType::infiniband);
        locked_tooltip();
        m_ctx.items.note(hooks[i]);
    }
    ImGui::EndDisabled();
}

// A locked guess says why when the mouse is on it (disabled items are not hovered otherwise).
void RackPanel::locked_tooltip() const {
    if (guess_locked() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ui::tooltip_wrapped(m_mode == Mode::send ? "The guess is in once the send starts: pick other GPUs or another size to "
                                                   "guess again."
                                                 : "The guess is in once the run starts: change the size, the group or the "
                                                   "operation to guess again.",
                            24);
}

void RackPanel::draw_times_guess(const char* label) {
    float times = static_cast<float>(m_guess.times);
    // Locked: read-only and greyed, but a field that takes the keyboard when clicked (digits typed
    // into it must not switch lessons).
    const bool locked = guess_locked();
    if (locked) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, ImGui::GetStyle().DisabledAlpha);
    if (ImGui::InputFloat(label, &times, 0, 0, times > 0 ? "%.3g" : locked ? "no guess" : "your guess",
                          locked ? ImGuiInputTextFlags_ReadOnly : 0) &&
        !locked)
        m_guess.times = std::clamp(static_cast<double>(times), 0.0, 1e6);
    if (std::exchange(m_focus_times, false) && !locked) ui::type_into_last_item();  // N
    if (locked) ImGui::PopStyleVar();
    locked_tooltip();
    m_ctx.items.note("guess_times");
}

// Presenter view keeps the question in the room: the guess for the send or the collective on one
// row above the scene (Space runs), so a teacher takes the class's answer without leaving it.
void RackPanel::draw_presenter_strip() {
    ImGui::AlignTextToFramePadding();
    if (m_mode == Mode::send) {
        ImGui::TextUnformatted("Wire?");
        // One row: no "no guess" button; a click on the chosen wire takes the guess back.
        const std::pair<const char*, core::LinkType> wires[] = {{"NVLink", core::LinkType::nvlink},
                                                                 {"InfiniBand", core::LinkType::infiniband}};
        for (const auto& [name, type] : wires) {
            ImGui::SameLine();
            const bool chosen = m_guess.link == type;
            ImGui::BeginDisabled(guess_locked());
            if (ImGui::RadioButton(name, chosen)) m_guess.link = chosen ? std::nullopt : std::optional(type);
            ImGui::EndDisabled();
            locked_tooltip();
            m_ctx.items.note(type == core::LinkType::nvlink ? "guess_nvlink" : "guess_infiniband");
        }
        // One row: the wire and Send always, the times-as-long box before Send where both fit,
        // with what it is as long as (the side panel's question, which presenter view hides)
        // where that fits too.
        const float fs = ImGui::GetFontSize();
        const float box_w = ui::button_width("your guess");  // the empty box's words fit it
        const auto width_of = [&](const char* label) { return box_w + ImGui::CalcTextSize(label, nullptr, true).x; };
        const char* times_label = "\xc3\x97 as long as in one node##strip";
        const float room = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x - ImGui::GetItemRectMax().x;
        if (width_of(times_label) + fs * 3.0f + ui::button_width("Send") > room) times_label = "\xc3\x97 as long##strip";
        const float times_w = width_of(times_label);
        if (ui::beside_if_fits(times_w + fs * 2.0f + ui::button_width("Send"), fs)) {
            ImGui::SetNextItemWidth(box_w);
            draw_times_guess(times_label);
            ui::label_focuses_field({times_label, box_w});
        }
        ImGui::SameLine(0, fs);
        if (ImGui::Button("Send")) send();
        m_ctx.items.note("strip_send");
        return;
    }
    if (core::guess_question(cluster().system(), m_collective.group, m_op, static_cast<double>(m_collective.bytes)).empty()) {
        ImGui::TextDisabled("One algorithm here: nothing to guess. Space runs the %s.",
                            std::string(core::collective_op_label(m_op)).c_str());
        return;
    }
    ImGui::TextUnformatted(core::guess_choices(cluster().system(), m_collective.group, m_op).size() > 2 ? "Which is fastest?"
                                                                                                  : "Which is faster?");
    ImGui::SameLine();
    draw_collective_guess_choices();
    // The keys for the question, where the row has room for them (G: the guess, while it is open).
    ui::run_key_hint(playback(), !guess_locked());
}

core::SendReveal RackPanel::reveal() const { return core::reveal_send(m_guess, cluster(), m_transfer); }

float RackPanel::reveal_height(float wrap) const {
    // Kept from the moment there is a guess, so the drawing does not shrink when the reveal appears.
    if (!m_guess.any()) return 0;
    float h = 0;
    for (const std::string& line : reveal().lines)
        h += ImGui::CalcTextSize(line.c_str(), nullptr, false, wrap).y + ImGui::GetStyle().ItemSpacing.y;
    return h;
}

void RackPanel::draw_reveal() {
    if (!send_finished() || !m_guess.any()) return;
    const auto& th = m_ctx.view.theme;
    const core::SendReveal r = reveal();
    for (std::size_t i = 0; i < r.lines.size(); ++i) {
        const bool link_line = r.link_guessed && i == 0;
        const bool right = link_line ? r.link_right : r.times_close;
        ui::text_wrapped_coloured(right ? th.nvlink : th.accent, r.lines[i]);
        if (i == 0) m_ctx.items.note("rack_reveal");
    }
}

void RackPanel::draw_collective_predict() {
    const core::CollectiveGroup& g = m_collective.group;
    const std::string question = core::guess_question(cluster().system(), g, m_op, static_cast<double>(m_collective.bytes));
    if (question.empty()) return;
    const bool asked = std::exchange(m_open_predict, false);  // G
    if (asked) ImGui::SetNextItemOpen(true);
    const bool open = ImGui::TreeNode("Predict first?##collective");
    if (asked) ui::scroll_to_last_item();
    m_ctx.items.note("collective_predict_open");
    if (!open) return;
    ImGui::TextWrapped("%s", question.c_str());
    draw_collective_guess_choices();
    ImGui::TreePop();
}

void RackPanel::draw_collective_guess_choices() {
    const auto choices = core::guess_choices(cluster().system(), m_collective.group, m_op);
    int pick = 0;
    for (std::size_t i = 0; i < choices.size(); ++i)
        if (m_collective_guess.faster == choices[i]) pick = static_cast<int>(i) + 1;
    int chosen = pick;
    ImGui::BeginDisabled(guess_locked());
    ImGui::RadioButton("no guess##c", &chosen, 0);
    locked_tooltip();
    m_ctx.items.note("cguess_none");
    for (std::size_t i = 0; i < choices.size(); ++i) {
        const std::string label(core::collective_algorithm_label(choices[i]));
        ui::same_line_if_fits(ui::radio_width(label.c_str()));
        ImGui::RadioButton((label + "##c").c_str(), &chosen, static_cast<int>(i) + 1);
        locked_tooltip();
        m_ctx.items.note("cguess_" + std::string(core::collective_algorithm_name(choices[i])));
    }
    ImGui::EndDisabled();
    if (chosen != pick) m_collective_guess.faster = chosen == 0 ? std::nullopt : std::optional(choices[static_cast<std::size_t>(chosen) - 1]);
}

core::CollectiveReveal RackPanel::collective_reveal() const {
    return core::reveal_collective(m_collective_guess, cluster(), m_collective);
}

}  // namespace m2m::lessons
