// Lesson 1's hardware controls and roofline plot: both read the core's setup and result only.
#include "lessons/layers/roofline_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "m2m/core/engine/text.hpp"
#include "m2m/presets/presets.hpp"

namespace m2m::lessons {

namespace {

// A row of choices after its title, and a "(?)" that shows `why` when hovered.
bool radio_row(const char* title, int* v, std::initializer_list<const char*> labels, const char* item_prefix,
               ui::ItemRegistry& items, const std::string& why) {
    ImGui::TextUnformatted(title);
    bool clicked = false;
    int i = 0;
    ImGui::PushID(title);
    for (const char* label : labels) {
        ui::same_line_if_fits(ui::radio_width(label));
        clicked |= ImGui::RadioButton(label, v, i++);
        items.note(std::string(item_prefix) + label);
    }
    ImGui::PopID();
    ui::same_line_if_fits(ImGui::CalcTextSize("(?)").x);
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) ui::tooltip_wrapped(why.c_str(), 26);
    return clicked;
}

// A layer's FLOP/s as run: its FLOPs over its whole time, fixed cost included, so a launch-bound
// layer sits below its roof by as much as the launch costs it.
double achieved_flops(const core::LayerPoint& l, const core::LayerTiming& t, core::TimeUnit unit) {
    const double s = static_cast<double>(t.total()) * core::seconds_per_step(unit);
    return s > 0 ? l.counts.flops / s : 0;
}

}  // namespace

bool machine_combo(const char* label, const std::vector<std::string>& ids, std::size_t& index, core::ComputeSpec& spec,
                   std::uint32_t& cores) {
    const auto& cat = presets::builtin();
    bool picked = false;
    const char* name = cat.find(ids[index])->spec.name.c_str();
    const float beside = ImGui::CalcTextSize("GPU").x + ImGui::GetStyle().ItemInnerSpacing.x;
    // The label goes above when the chip's whole name would not fit beside it (a narrow panel).
    const bool above = ImGui::CalcTextSize(name).x + ImGui::GetFrameHeight() * 1.5f + beside > ImGui::GetContentRegionAvail().x;
    if (above) ImGui::TextUnformatted(label);
    const float width = ImGui::GetContentRegionAvail().x - (above ? 0 : beside);
    ImGui::SetNextItemWidth(width);
    const bool open = ImGui::BeginCombo(above ? (std::string("##") + label).c_str() : label, ui::combo_preview(name, width).c_str());
    if (!open && ImGui::IsItemHovered()) ui::tooltip_wrapped(cat.find(ids[index])->spec.source.c_str(), 30);
    if (open) {
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const auto* p = cat.find(ids[i]);
            if (ImGui::Selectable(p->spec.name.c_str(), i == index) && i != index) {
                index = i;
                spec = p->spec;
                cores = p->spec.cores;
                picked = true;
            }
        }
        ImGui::EndCombo();
    }
    return picked;
}

bool hardware_controls(ui::ItemRegistry& items, core::LayerRunSetup& setup,
                       const core::LayerRunStory& story) {
    bool changed = false;
    const ui::LabelFit fit = ui::fit_label("Batch (inputs at once)", 0.55f);
    ImGui::SetNextItemWidth(fit.width);
    changed |= ImGui::SliderInt(fit.label.c_str(), &setup.batch, 1, core::max_batch, "%d",
                                ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
    setup.batch = std::clamp(setup.batch, 1, core::max_batch);
    items.note("batch_slider");
    int precision = static_cast<int>(setup.precision);
    if (radio_row("Precision", &precision, {"FP32", "BF16", "FP8"}, "precision_", items, story.precision_note)) {
        changed |= precision != static_cast<int>(setup.precision);
        setup.precision = static_cast<core::Precision>(precision);
    }
    int cache = setup.cache == core::CacheState::cold ? 0 : 1;
    if (radio_row("Weights", &cache, {"cold", "warm"}, "cache_", items, story.cache_note)) {
        const auto next = cache == 0 ? core::CacheState::cold : core::CacheState::warm;
        changed |= next != setup.cache;
        setup.cache = next;
    }
    return changed;
}

RooflinePicture roofline_picture(const ui::Theme& th, const core::LayerRunResult& r, bool revealed) {
    RooflinePicture pic;
    if (r.layers.empty()) return pic;
    double lo = std::min(r.cpu_roof.ridge(), r.gpu_roof.ridge()), hi = std::max(r.cpu_roof.ridge(), r.gpu_roof.ridge());
    for (const auto& l : r.layers) lo = std::min(lo, l.counts.intensity()), hi = std::max(hi, l.counts.intensity());
    lo /= 3, hi *= 3;
    for (bool gpu : {false, true}) {
        const core::Roof& roof = gpu ? r.gpu_roof : r.cpu_roof;
        const ImU32 colour = gpu ? th.gpu : th.cpu;
        ui::PlotSeries s{{}, {}, ui::fade(colour, 0.8f)};
        auto add = [&](double x) { s.x.push_back(x), s.y.push_back(std::min(roof.compute_flops, roof.bandwidth_Bps * x)); };
        add(lo);
        add(roof.ridge());
        add(hi);
        pic.roofs.push_back(std::move(s));
        pic.ridges.push_back({roof.ridge(), std::string(gpu ? "GPU" : "CPU") + " ridge", colour});  // values: the sentence
        if (!revealed) continue;
        // One point per run of equal layers (the hidden layers of a uniform width are one point),
        // and one label per run of layers held back by the same thing: "L1\u2013L3 add-chain-bound"
        // once, not three labels stacked over the roofs of a short plot.
        const auto bound_of = [&](std::size_t i) { return core::bound_label((gpu ? r.layers[i].gpu : r.layers[i].cpu).bound, gpu); };
        for (std::size_t i = 0; i < r.layers.size();) {
            std::size_t j = i;
            while (j + 1 < r.layers.size() && r.layers[j + 1].n_in == r.layers[i].n_in &&
                   r.layers[j + 1].n_out == r.layers[i].n_out)
                ++j;
            std::size_t last = j;  // the last layer of the run of layers with this bound
            while (last + 1 < r.layers.size() && bound_of(last + 1) == bound_of(i)) ++last;
            const auto& l = r.layers[i];
            const core::LayerTiming& t = gpu ? l.gpu : l.cpu;
            std::string label;
            if (i == 0 || bound_of(i - 1) != bound_of(i)) {
                const std::string which = i == last ? "L" + std::to_string(i + 1)
                                                    : "L" + std::to_string(i + 1) + "\xe2\x80\x93" + std::to_string(last + 1);
                label = which + " " + std::string(bound_of(i));
            }
            pic.points.push_back({l.counts.intensity(), achieved_flops(l, t, r.unit), label, colour});
            i = j + 1;
        }
    }
    return pic;
}

void draw_roofline(const ui::View& view, const core::LayerRunResult& r, ImVec2 size, bool revealed) {
    const RooflinePicture pic = roofline_picture(view.theme, r, revealed);
    if (pic.roofs.empty()) return;
    // Wrapped to the plot's width, not the column's: the speedup plot is beside it.
    const std::string note =
        revealed ? std::string() : ui::wrap_at_spaces("Each layer's point, the FLOP/s it reaches, shows once the run is done.", size.x);
    const float note_h = note.empty() ? 0 : ImGui::CalcTextSize(note.c_str()).y + ImGui::GetStyle().ItemSpacing.y;
    ImGui::BeginGroup();  // the plot and its note are one item: the speedup plot goes beside both
    ui::log_log_plot(view, "roofline", pic.roofs, pic.ridges, "FLOPs per byte moved (arithmetic intensity)",
                     "FLOP/s", ImVec2(size.x, std::max(size.y - note_h, ImGui::GetFontSize() * 6)), 0, pic.points);
    if (!note.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, view.theme.text_dim);
        ImGui::TextUnformatted(note.data(), note.data() + note.size());
        ImGui::PopStyleColor();
    }
    ImGui::EndGroup();
}

ui::PlotSeries speedup_curve(const std::vector<core::SpeedupPoint>& sweep, bool revealed, ImU32 colour) {
    ui::PlotSeries s{{}, {}, colour};
    if (sweep.empty()) return s;
    if (!revealed) {
        s.colour = ui::fade(colour, 0.0f);
        s.x = {static_cast<double>(sweep.front().width), static_cast<double>(sweep.back().width)};
        s.y = {1e-3, 1e4};
        return s;
    }
    for (const auto& p : sweep) s.x.push_back(p.width), s.y.push_back(p.speedup);
    return s;
}

}  // namespace m2m::lessons
