// Lesson 3's "Frontier scale" tab: a model preset on a GPU preset, split by tensor, pipeline and
// data parallelism. The core computes (check, memory_use, estimate, search_layouts); this file
// keeps the settings and the last answer, and draws it.
//
// [SECTION] settings and recompute   [SECTION] tab and controls   [SECTION] memory
// [SECTION] readouts and timeline    [SECTION] search and assumptions   [SECTION] state
#include "lessons/split/frontier_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "lessons/saved_state.hpp"
#include "m2m/core/engine/units.hpp"
#include "m2m/presets/models.hpp"
#include "ui/view.hpp"
#include "ui/format.hpp"
#include "ui/widgets.hpp"
#include "m2m/core/engine/text.hpp"

namespace m2m::lessons {

namespace {

constexpr int max_whole = 1 << 24;  // any typed whole number is clamped to 1..this

// 2.79e12 -> "2.79 TB", 5.54e10 -> "55.4 GB", 8e8 -> "0.8 GB".
std::string bytes_text(double b) {
    if (b >= 1e12) return ui::formatted("%.3g TB", b / 1e12);
    if (b >= 1e9) return ui::formatted("%.3g GB", b / 1e9);
    return ui::formatted("%.2g GB", b / 1e9);
}

// 3e11 -> "300B", 1.56e13 -> "15.6T": a token count short enough for a readout's label.
std::string short_count(double v) {
    if (v >= 1e12) return ui::formatted("%.3gT", v / 1e12);
    if (v >= 1e9) return ui::formatted("%.3gB", v / 1e9);
    return ui::formatted("%.3gM", v / 1e6);
}

std::string words(double v) {
    if (v >= 1e12) return ui::formatted("%.3g trillion", v / 1e12);
    if (v >= 1e9) return ui::formatted("%.3g billion", v / 1e9);
    if (v >= 1e6) return ui::formatted("%.3g million", v / 1e6);
    return ui::formatted("%.3g", v);
}

core::LinkType link_type(bool infiniband) { return infiniband ? core::LinkType::infiniband : core::LinkType::nvlink; }

// Memory parts, in the order they are stacked: weights, gradients (made by the backward pass, so
// its colour), Adam state (the update's colour), activations.
ImU32 part_colour(const ui::Theme& th, int i) {
    const ImU32 c[4] = {th.gpu, ui::bar_kind_colour(th, ui::BarKind::backward), ui::bar_kind_colour(th, ui::BarKind::update), th.cpu};
    return c[std::clamp(i, 0, 3)];
}

int clamp_whole(int v) { return std::clamp(v, 1, max_whole); }

// A new GPU count, TP, CP or PP keeps TP x CP x PP x DP equal to the GPUs when it divides them evenly.
void fit_dp(core::Layout& l) {
    const std::int64_t tp_pp = static_cast<std::int64_t>(l.tp) * l.cp * l.pp;
    if (tp_pp > 0 && l.gpus % tp_pp == 0) l.dp = static_cast<int>(l.gpus / tp_pp);
}
int as_int(std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, INT_MIN, INT_MAX)); }

// One horizontal bar of stacked parts on a scale of `scale` bytes; returns its left x and width.
std::pair<float, float> stacked_bar(const ui::Theme& th, const double* parts, int n, double scale, float height) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + height), th.panel, 2.0f);
    float x = p.x;
    for (int i = 0; i < n; ++i) {
        const float x1 = std::min(p.x + w, x + static_cast<float>(parts[i] / scale) * w);
        if (x1 > x) dl->AddRectFilled(ImVec2(x, p.y), ImVec2(std::max(x1, x + 1.0f), p.y + height), part_colour(th, i));
        x = x1;
    }
    ImGui::Dummy(ImVec2(w, height));
    return {p.x, w};
}

// A row of radio buttons that wraps when the column is narrow; true when the value changed.
template <class T>
bool radio_row(const char* title, T& value, std::initializer_list<std::pair<const char*, T>> options) {
    bool changed = false;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(title);
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (const auto& [label, v] : options) {
        // Beside the item before when it fits, else on a new line (SameLine then NewLine would
        // stretch the window's content past its edge).
        const float w = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
        const std::string id = std::string(label) + "##" + title;
        if (ImGui::RadioButton(id.c_str(), value == v) && value != v) {
            value = v;
            changed = true;
        }
    }
    return changed;
}

}  // namespace

// [SECTION] settings and recompute ----------------------------------------------------------

core::Layout FrontierView::default_layout() {
    core::Layout l;
    l.gpus = 1024;
    l.tp = 8;
    l.pp = 8;
    l.dp = 16;
    l.micro_batch = 1;
    l.global_batch = 1536;
    return l;
}

FrontierView::FrontierView() {
    apply(m_settings);
    m_edit_gpus = m_settings.layout.gpus;
    m_edit_batch = as_int(m_settings.layout.global_batch);
    m_edit_billions = m_settings.tokens / 1e9;
}

void FrontierView::apply(const Settings& s) {
    auto fail = [](const std::string& why) { throw std::invalid_argument(why); };
    const presets::ModelPreset* model = presets::builtin_models().find(s.model);
    if (!model) fail("model: unknown model '" + s.model + "' (accepted: " + presets::joined_model_ids() + ")");
    auto made = presets::estimator_setup(model->shape, s.gpu);
    if (!made || presets::resolve_gpu_id(s.gpu) != s.gpu)
        fail("gpu: unknown GPU '" + s.gpu + "' (accepted: " + presets::joined_estimator_gpu_ids() + ")");
    if (!(s.tokens >= min_tokens && s.tokens <= max_tokens)) fail("tokens: must be a number from 1e6 to 1e15");

    core::EstimateSetup setup = std::move(*made);
    setup.layout = s.layout;
    setup.train_tokens = s.tokens;
    // The whole model on one GPU: what its weights, gradients and Adam state need before any split.
    core::EstimateSetup one = setup;
    one.layout = core::Layout{};
    one.layout.recompute = s.layout.recompute;
    one.layout.attention = s.layout.attention;
    const core::MemoryUse whole = core::memory_use(one);
    std::optional<core::SetupProblem> problem = core::check(setup);
    core::Estimate e;
    if (!problem) {
        try {
            e = core::estimate(setup, true);
        } catch (const std::invalid_argument& x) {  // e.g. links the cluster model cannot build
            problem = core::SetupProblem{"gpus", x.what()};
        }
    }

    // Everything computed: only now change the view.
    m_settings = s;
    m_setup = std::move(setup);
    m_whole = whole;
    m_problem = std::move(problem);
    m_estimate = std::move(e);
    ++m_computations;
    if (m_search && !same_search_inputs(m_search_settings, m_settings)) m_search.reset();
    build_views();
}

bool FrontierView::same_search_inputs(const Settings& a, const Settings& b) const {
    const core::Layout &x = a.layout, &y = b.layout;
    // The search chooses the split, ZeRO stage, recompute, micro-batch and schedule itself.
    return a.model == b.model && a.gpu == b.gpu && x.gpus == y.gpus && x.global_batch == y.global_batch &&
           x.attention == y.attention && x.overlap == y.overlap && x.hybrid_shard == y.hybrid_shard &&
           x.sequence_parallel == y.sequence_parallel;
}

void FrontierView::build_views() {
    const core::EstimateSetup& s = m_setup;
    const presets::ModelPreset* model = presets::builtin_models().find(m_settings.model);
    const auto eff = core::achievable_fraction(s.gpu.id);
    m_gpu_sources = presets::builtin().find(s.gpu.id)->spec.source + "Sustained share of peak: " +
                    ui::formatted("%.2f", s.gpu.achievable_fraction) + (eff ? " (" + eff->source + ")" : "") + "\nLinks: " +
                    s.system.name + "\n" + s.system.source;
    m_model_sources.clear();
    for (const auto& f : model->figures) m_model_sources += f.label + ": " + f.value + " (" + f.source + ")\n";

    // The whole model against one GPU.
    const double state = state_bytes(), cap = s.gpu.memory_bytes;
    m_min_gpus = static_cast<int>(std::ceil(state / cap));
    m_whole_text = "The whole model: " + words(m_whole.parameters) + " parameters x 16 bytes = " + bytes_text(state) +
                   " for its weights, gradients and Adam state.";
    m_whole_legend[0] = "weights " + bytes_text(m_whole.weights_bytes);
    m_whole_legend[1] = "gradients " + bytes_text(m_whole.gradients_bytes);
    m_whole_legend[2] = "Adam state " + bytes_text(m_whole.optimizer_bytes);
    m_whole_legend[3] = "one GPU: " + bytes_text(cap);
    m_whole_verdict = state > cap ? "It does not fit in one " + s.gpu.name + " (" + bytes_text(cap) +
                                        "): these alone need the memory of at least " + core::format_count(m_min_gpus) +
                                        " GPUs, before any activations."
                                  : "It fits in one GPU's " + bytes_text(cap) + ", with " + bytes_text(cap - state) +
                                        " left for activations.";
    const core::Layout& lay = m_settings.layout;
    m_product_text = "TP x CP x PP x DP = " + std::to_string(lay.tp) + " x " + std::to_string(lay.cp) + " x " +
                     std::to_string(lay.pp) + " x " + std::to_string(lay.dp) + " = " +
                     core::format_count(static_cast<std::int64_t>(lay.tp) * lay.cp * lay.pp * lay.dp) + " GPUs";
    m_layout_text = s.model.name + " on " + core::format_count(lay.gpus) + " " + s.gpu.name + " GPUs, " +
                    core::format_counted(lay.global_batch, "sequence") + " of " + core::format_count(s.model.seq) +
                    " tokens a step: " + core::layout_words(lay) + ".";
    m_problem_text = m_problem ? "This layout cannot run. " + m_problem->field + ": " + m_problem->message : std::string();

    // The step on the timeline: one row per pipeline stage (the GPUs of a stage all do the same).
    m_rows.clear();
    m_bar_link.clear();
    m_sends_nv = m_sends_ib = false;
    m_link_legend[0].clear();
    m_link_legend[1].clear();
    m_links_text.clear();
    if (m_problem) return;
    const core::MemoryUse& m = m_estimate.memory;
    m_gpu_head = "Each GPU of pipeline stage " + std::to_string(m.stage + 1) + " (the fullest, " +
                 ui::formatted("%.0f", m.in_flight_micro_batches) + " micro-batches in flight): " + bytes_text(m.total_bytes) + " of " +
                 bytes_text(m.capacity_bytes) + (m.fits ? "" : " \xe2\x80\x94 it does not fit");
    if (!m.fits) {
        const auto change = core::change_to_fit(s);
        m_gpu_head += change ? ". " + change->sentence
                             : ". No single change fits it on these GPUs: add GPUs, or let the search below find a layout.";
    }
    m_gpu_legend[0] = "weights " + bytes_text(m.weights_bytes);
    m_gpu_legend[1] = "gradients " + bytes_text(m.gradients_bytes);
    m_gpu_legend[2] = "Adam state " + bytes_text(m.optimizer_bytes);
    m_gpu_legend[3] = "activations " + bytes_text(m.activations_bytes);
    m_gpu_legend[4] = "capacity " + bytes_text(m.capacity_bytes);
    const int pp = s.layout.pp;
    std::vector<core::LinkType> send_link(static_cast<std::size_t>(pp) * static_cast<std::size_t>(std::max(s.layout.chunks, 1)),
                                          core::LinkType::local);
    for (const core::StageCost& c : m_estimate.stages) {
        const std::size_t j = static_cast<std::size_t>(c.chunk) * static_cast<std::size_t>(pp) + static_cast<std::size_t>(c.stage);
        if (j < send_link.size()) send_link[j] = c.send_link;
    }
    bool dp_ib = false, tp_ib = false;
    try {
        const core::LayoutLinks links(s);
        dp_ib = links.dp_link() == core::LinkType::infiniband;
        tp_ib = links.tp_link() == core::LinkType::infiniband;
    } catch (const std::invalid_argument&) {
    }
    struct Item {
        double start, end;
        ui::BarKind kind;
        std::uint8_t link;
    };
    std::vector<std::vector<Item>> items(static_cast<std::size_t>(pp));
    for (const core::TrainingTask& t : m_estimate.tasks) {
        if (t.kind == core::TrainingTaskKind::join || t.stage < 0 || t.stage >= pp) continue;
        Item it{t.start_s, t.end_s, ui::BarKind::forward, 0};
        switch (t.kind) {
            case core::TrainingTaskKind::forward: break;
            case core::TrainingTaskKind::backward: it.kind = ui::BarKind::backward; break;
            case core::TrainingTaskKind::optimizer: it.kind = ui::BarKind::update; break;
            case core::TrainingTaskKind::send_forward:
            case core::TrainingTaskKind::send_backward: {
                const std::size_t j =
                    static_cast<std::size_t>(t.chunk) * static_cast<std::size_t>(pp) + static_cast<std::size_t>(t.stage);
                const bool ib = j < send_link.size() && send_link[j] == core::LinkType::infiniband;
                it.kind = ui::BarKind::communication;
                it.link = ib ? 2 : 1;
                (ib ? m_sends_ib : m_sends_nv) = true;
                break;
            }
            case core::TrainingTaskKind::dp_reduce:
            case core::TrainingTaskKind::param_gather:
            case core::TrainingTaskKind::steady: break;  // compute: the steady state's passes, back to back
            case core::TrainingTaskKind::zero_traffic:
                it.kind = ui::BarKind::communication;
                it.link = dp_ib ? 2 : 1;
                break;
            case core::TrainingTaskKind::join: continue;
        }
        items[static_cast<std::size_t>(t.stage)].push_back(it);
    }
    for (int k = 0; k < pp; ++k) {
        auto& row_items = items[static_cast<std::size_t>(k)];
        std::stable_sort(row_items.begin(), row_items.end(), [](const Item& a, const Item& b) { return a.start < b.start; });
        ui::TimelineRow row;
        row.label = "stage " + std::to_string(k + 1);
        std::vector<std::uint8_t> links;
        for (const Item& it : row_items) {
            row.bars.push_back({it.start, it.end, it.kind, 0});
            links.push_back(it.link);
        }
        m_rows.push_back(std::move(row));
        m_bar_link.push_back(std::move(links));
    }
    m_coloured_for.reset();  // coloured at the next draw, in the theme it draws with
    // One legend entry per link: what crosses it.
    const bool dp_sync = s.layout.dp > 1;
    for (int ib = 0; ib < 2; ++ib) {
        const bool sends = ib ? m_sends_ib : m_sends_nv, sync = dp_sync && dp_ib == (ib == 1);
        m_link_legend[ib] = !sends && !sync ? std::string()
                                            : std::string(ib ? "InfiniBand: " : "NVLink: ") +
                                                  (sends && sync ? "stage sends, gradient sync" : sends ? "stage sends" : "gradient sync");
    }
    const core::Layout& l = s.layout;
    m_links_text = "Tensor groups on " + std::string(l.tp > 1 ? (tp_ib ? "InfiniBand" : "NVLink") : "no link (TP 1)") +
                   " \xc2\xb7 pipeline sends on " +
                   std::string(pp > 1 ? (m_sends_ib ? (m_sends_nv ? "NVLink and InfiniBand" : "InfiniBand") : "NVLink")
                                      : "no link (PP 1)") +
                   " \xc2\xb7 gradient sync on " + std::string(l.dp > 1 ? (dp_ib ? "InfiniBand" : "NVLink") : "no link (DP 1)");
}

void FrontierView::recolour(const ui::Theme& th) {
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        for (std::size_t b = 0; b < m_rows[r].bars.size(); ++b)
            if (m_bar_link[r][b]) m_rows[r].bars[b].colour = th.link(link_type(m_bar_link[r][b] == 2));
    m_coloured_for = th.kind;
}

void FrontierView::run_search() {
    core::EstimateSetup s = m_setup;
    s.layout.tp = s.layout.pp = 1;
    s.layout.dp = s.layout.gpus;
    s.layout.micro_batch = 1;
    m_search = core::search_layouts(s, 5);
    m_search_settings = m_settings;
}

bool FrontierView::apply_search_row(std::size_t i) {
    if (!m_search || i >= m_search->best.size()) return false;
    Settings s = m_settings;
    s.layout = m_search->best[i].layout;
    apply(s);
    return true;
}

// [SECTION] tab and controls ----------------------------------------------------------------

bool FrontierView::draw(Context& ctx) {
    if (!m_tab.draw(ctx)) return false;
    if (m_coloured_for != ctx.view.theme.kind) recolour(ctx.view.theme);
    controls_beside_scene(ctx, "frontier", controls_width(20.0f, 0.3f), [&] { draw_controls(ctx); },
                          [&] { draw_scene(ctx); });
    return true;
}

void FrontierView::draw_controls(Context& ctx) {
    const auto& th = ctx.view.theme;
    static const std::string intro = "A real model on real GPUs. Will it fit? Then split it and time one training step.";
    m_wrap.text(th.text, intro);
    ImGui::Separator();
    Settings s = m_settings;
    const PresetRow row = preset_row();
    const ui::Beside sources = row.sources_beside ? ui::Beside::yes : ui::Beside::no;
    bool changed = model_combo("##frontier_model", row.combo_width, s.model);
    ctx.items.note("frontier_model");
    ui::sources_marker(m_model_sources, sources);
    changed |= preset_combo("##frontier_gpu", row.combo_width, presets::estimator_gpu_ids(), s.gpu);
    ctx.items.note("frontier_gpu");
    ui::sources_marker(m_gpu_sources, sources);
    changed |= draw_sizes(ctx, s);
    ImGui::Separator();
    draw_layout_controls(ctx, s, changed);
    if (changed) apply(s);  // every value offered here is accepted (a refused layout is explained)
    if (m_problem) m_wrap.text(th.warning, m_problem_text);
}

bool FrontierView::draw_sizes(Context& ctx, Settings& s) {
    // Typed numbers take effect when the box is left, so a half-typed "15" never runs.
    core::Layout& l = s.layout;
    const float input_w = ImGui::GetContentRegionAvail().x * 0.4f;
    bool changed = false;
    ImGui::TextUnformatted("GPUs");
    ImGui::SetNextItemWidth(input_w);
    ImGui::InputInt("##frontier_gpus", &m_edit_gpus, 0, 0);
    int gpus = ImGui::IsItemDeactivatedAfterEdit() ? m_edit_gpus : l.gpus;
    if (!ImGui::IsItemActive()) m_edit_gpus = l.gpus;
    ctx.items.note("frontier_gpus");
    ImGui::SameLine();
    if (ImGui::SmallButton("\xc3\xb7" "2")) gpus = std::max(1, l.gpus / 2);
    ImGui::SameLine();
    if (ImGui::SmallButton("\xc3\x97" "2")) gpus = static_cast<int>(std::min<std::int64_t>(std::int64_t{l.gpus} * 2, core::max_cluster_gpus));
    gpus = std::clamp(gpus, 1, static_cast<int>(core::max_cluster_gpus));
    if (gpus != l.gpus) {
        l.gpus = gpus;
        fit_dp(l);
        changed = true;
    }
    static const std::string batch_label = "Sequences a step", tokens_label = "Training tokens, billions";
    m_wrap.text(ctx.view.theme.text, batch_label);
    ImGui::SetNextItemWidth(input_w);
    ImGui::InputInt("##frontier_batch", &m_edit_batch, 0, 0);
    if (ImGui::IsItemDeactivatedAfterEdit() && clamp_whole(m_edit_batch) != l.global_batch) {
        l.global_batch = clamp_whole(m_edit_batch);
        changed = true;
    }
    if (!ImGui::IsItemActive()) m_edit_batch = as_int(l.global_batch);
    ctx.items.note("frontier_batch");
    m_wrap.text(ctx.view.theme.text, tokens_label);
    changed |= tokens_box("##frontier_tokens", input_w, m_edit_billions, s.tokens, min_tokens, max_tokens);
    return changed;
}

void FrontierView::draw_layout_controls(Context& ctx, Settings& s, bool& changed) {
    core::Layout& l = s.layout;
    const float input_w = ImGui::GetContentRegionAvail().x * 0.4f;
    ImGui::TextUnformatted("Layout");
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered())
        ui::tooltip_wrapped("Tensor parallel (TP) splits every layer's matrices across GPUs of one node; pipeline "
                            "parallel (PP) gives consecutive layers to different GPUs; data parallel (DP) copies the "
                            "result, each copy on its share of the batch; a micro-batch (MB) is the sequences one "
                            "pipeline pass carries. Changing TP or PP keeps the GPU count when it divides evenly.",
                            30);
    if (radio_row<int>("TP", l.tp, {{"1", 1}, {"2", 2}, {"4", 4}, {"8", 8}})) {
        fit_dp(l);
        changed = true;
    }
    auto whole = [&](const char* label, int value, int& out, bool keep_gpus) {
        ImGui::SetNextItemWidth(input_w);
        if (ImGui::InputInt(label, &value) && clamp_whole(value) != out) {
            out = clamp_whole(value);
            if (keep_gpus) fit_dp(l);
            changed = true;
        }
    };
    whole("PP", l.pp, l.pp, true);
    ctx.items.note("frontier_pp");
    whole("DP", l.dp, l.dp, false);
    ctx.items.note("frontier_dp");
    m_wrap.text(ctx.view.theme.text_dim, m_product_text);
    int mb = as_int(l.micro_batch);
    ImGui::SetNextItemWidth(input_w);
    if (ImGui::InputInt("MB", &mb) && clamp_whole(mb) != l.micro_batch) {
        l.micro_batch = clamp_whole(mb);
        changed = true;
    }
    ctx.items.note("frontier_micro_batch");

    changed |= radio_row<core::ScheduleKind>("Schedule", l.schedule,
                                             {{"1F1B", core::ScheduleKind::one_f_one_b},
                                              {"GPipe", core::ScheduleKind::gpipe},
                                              {"interleaved", core::ScheduleKind::interleaved}});
    if (l.schedule == core::ScheduleKind::interleaved) whole("chunks", l.chunks, l.chunks, false);
    changed |= radio_row<core::Recompute>(
        "Recompute", l.recompute,
        {{"none", core::Recompute::none}, {"selective", core::Recompute::selective}, {"full", core::Recompute::full}});
    changed |= radio_row<core::AttentionKernel>(
        "Attention", l.attention, {{"standard", core::AttentionKernel::standard}, {"flash", core::AttentionKernel::flash}});
    draw_sharding_controls(ctx, l, changed);
}

// ZeRO, context and expert parallelism, overlap: the dimensions of today's largest runs.
void FrontierView::draw_sharding_controls(Context& ctx, core::Layout& l, bool& changed) {
    const float input_w = ImGui::GetContentRegionAvail().x * 0.4f;
    changed |= radio_row<int>("ZeRO", l.zero_stage, {{"0", 0}, {"1", 1}, {"2", 2}, {"3", 3}});
    ctx.items.note("frontier_zero");
    static const std::string zero = "ZeRO 1 splits the Adam state over the DP copies, 2 the gradients too, 3 (FSDP) the "
                                    "weights too: each layer is gathered just before it runs.";
    m_wrap.text(ctx.view.theme.text_dim, zero);
    if (l.zero_stage > 0) {
        changed |= ImGui::Checkbox("Hybrid shard", &l.hybrid_shard);
        if (ImGui::IsItemHovered()) ui::tooltip_wrapped("Shard inside a node only and keep a copy per node.", 30);
        ctx.items.note("frontier_hybrid");
    }
    const auto whole = [&](const char* label, int& out, bool keep_gpus) {
        int value = out;
        ImGui::SetNextItemWidth(input_w);
        if (ImGui::InputInt(label, &value) && clamp_whole(value) != out) {
            out = clamp_whole(value);
            if (keep_gpus) fit_dp(l);
            changed = true;
        }
    };
    whole("CP", l.cp, true);
    ctx.items.note("frontier_cp");
    if (m_setup.model.moe()) {
        whole("EP", l.ep, false);
        ctx.items.note("frontier_ep");
    }
    changed |= ImGui::Checkbox("Overlap", &l.overlap);
    ctx.items.note("frontier_overlap");
    if (ImGui::IsItemHovered())
        ui::tooltip_wrapped("On: the gradient sync runs in buckets during the backward pass, FSDP gathers the next layer "
                            "while this one computes, pipeline sends travel beside the next pass. Off: each waits for "
                            "compute and compute waits for it.",
                            30);
}

// [SECTION] memory --------------------------------------------------------------------------

void FrontierView::draw_scene(Context& ctx) {
    const float fs = ImGui::GetFontSize();
    // Tall windows show memory, the step and the lists one under another; short ones keep the
    // readouts on top and let the rest take turns in tabs.
    const bool tall = ImGui::GetContentRegionAvail().y >= fs * 36.0f;
    draw_readouts(ctx);
    if (m_problem) m_wrap.text(ctx.view.theme.warning, m_problem_text);
    if (tall) {
        draw_whole_model(ctx);
        ImGui::Spacing();
        draw_per_gpu(ctx);
        ImGui::Spacing();
        if (!m_problem) {
            const float rest = ImGui::GetContentRegionAvail().y;
            const float rows_h = ui::timeline_height(static_cast<int>(m_rows.size()), {}) + fs * 1.6f;
            draw_timeline(ctx, std::min(rest - fs * 12.0f, rows_h));  // room left for the lists below
        }
    }
    if (!ImGui::BeginTabBar("frontier_lists")) return;
    if (!tall) {
        const bool open = ImGui::BeginTabItem("Memory");
        ctx.items.note("frontier_memory_tab");
        if (open) {
            ImGui::BeginChild("frontier_memory", ImVec2(0, 0), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
            draw_whole_model(ctx);
            ImGui::Spacing();
            draw_per_gpu(ctx);
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
    }
    if (!tall && !m_problem) {
        const bool open = ImGui::BeginTabItem("Step timeline");
        ctx.items.note("frontier_timeline_tab");
        if (open) {
            draw_timeline(ctx, ImGui::GetContentRegionAvail().y);
            ImGui::EndTabItem();
        }
    }
    const bool search_open = ImGui::BeginTabItem("Best layouts");
    ctx.items.note("frontier_search_tab");
    if (search_open) {
        ImGui::BeginChild("frontier_search", ImVec2(0, 0), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
        draw_search(ctx);
        ImGui::EndChild();
        ImGui::EndTabItem();
    }
    const bool assumptions_open = ImGui::BeginTabItem("What the estimate assumes");
    ctx.items.note("frontier_assumptions_tab");
    if (assumptions_open) {
        ImGui::BeginChild("frontier_assumptions", ImVec2(0, 0), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
        draw_assumptions(ctx);
        ImGui::EndChild();
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
}

void FrontierView::draw_whole_model(Context& ctx) {
    const auto& th = ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    m_wrap.text(th.text, m_whole_text);
    const double cap = m_setup.gpu.memory_bytes, state = state_bytes();
    const double parts[3] = {m_whole.weights_bytes, m_whole.gradients_bytes, m_whole.optimizer_bytes};
    const auto [x0, w] = stacked_bar(th, parts, 3, std::max(state, cap), fs * 1.1f);
    // One GPU's memory drawn on the same scale: a box from zero to its capacity.
    const float y1 = ImGui::GetItemRectMax().y, y0 = ImGui::GetItemRectMin().y;
    const float xc = x0 + static_cast<float>(cap / std::max(state, cap)) * w;
    ImGui::GetWindowDrawList()->AddRect(ImVec2(x0 + 1, y0 - 2), ImVec2(std::max(xc, x0 + 4) - 1, y1 + 2), th.text, 0, 0, 2.5f);
    ui::timeline_legend({{m_whole_legend[0].c_str(), part_colour(th, 0)}, {m_whole_legend[1].c_str(), part_colour(th, 1)},
                         {m_whole_legend[2].c_str(), part_colour(th, 2)}, {m_whole_legend[3].c_str(), th.text}});
    m_wrap.text(state > cap ? th.warning : th.text, m_whole_verdict);
}

void FrontierView::draw_per_gpu(Context& ctx) {
    const auto& th = ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    if (m_problem) return;
    const core::MemoryUse& m = m_estimate.memory;
    m_wrap.text(m.fits ? th.text : th.warning, m_gpu_head);
    const double parts[4] = {m.weights_bytes, m.gradients_bytes, m.optimizer_bytes, m.activations_bytes};
    const double scale = std::max(m.total_bytes, m.capacity_bytes) * 1.04;
    const auto [x0, w] = stacked_bar(th, parts, 4, scale, fs * 1.1f);
    const float y0 = ImGui::GetItemRectMin().y, y1 = ImGui::GetItemRectMax().y;
    const float xc = x0 + static_cast<float>(m.capacity_bytes / scale) * w;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(xc, y0 - fs * 0.3f), ImVec2(xc, y1 + fs * 0.3f), th.text, 3.0f);
    ui::timeline_legend({{m_gpu_legend[0].c_str(), part_colour(th, 0)}, {m_gpu_legend[1].c_str(), part_colour(th, 1)},
                         {m_gpu_legend[2].c_str(), part_colour(th, 2)}, {m_gpu_legend[3].c_str(), part_colour(th, 3)},
                         {m_gpu_legend[4].c_str(), th.text}});
}

// [SECTION] readouts and timeline -----------------------------------------------------------

void FrontierView::draw_readouts(Context& ctx) {
    const auto& th = ctx.view.theme;
    const float fs = ImGui::GetFontSize();
    if (m_problem) return;
    m_wrap.text(th.text, m_layout_text);
    const core::Estimate& e = m_estimate;
    ImFont* big = ImGui::GetIO().Fonts->Fonts.Size > 1 ? ImGui::GetIO().Fonts->Fonts[1] : ImGui::GetFont();
    const std::string tokens = "TRAINING, " + short_count(m_settings.tokens) + " TOKENS";
    const std::string values[5] = {core::format_seconds(e.step_time_s), core::format_count(std::llround(e.tokens_per_s)),
                                   ui::formatted("%.1f%%", e.mfu * 100), ui::formatted("%.1f%%", e.hfu * 100),
                                   core::format_seconds(e.train_days * 86400.0)};
    const char* labels[5] = {"STEP TIME", "TOKENS / S", "MFU", "HFU", tokens.c_str()};
    const ImU32 colours[5] = {th.text, th.text, th.gpu, th.text_dim, th.accent};
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (int i = 0; i < 5; ++i) {
        const float w = std::max(ImGui::CalcTextSize(labels[i]).x, big->CalcTextSizeA(big->FontSize, FLT_MAX, 0, values[i].c_str()).x);
        if (i > 0) {
            ImGui::SameLine(0, fs * 2.0f);
            if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
        }
        ui::readout(th, labels[i], values[i], colours[i]);
        if (ImGui::IsItemHovered()) {
            if (i == 2) ImGui::SetTooltip("Model FLOPs utilization: the model's FLOPs per step over the step time and every GPU's peak.");
            if (i == 3) ImGui::SetTooltip("Hardware FLOPs utilization: as MFU, but counting recomputed work too.");
            if (i == 4) ImGui::SetTooltip("%.1f days, every step like this one, with no failures or restarts", e.train_days);
        }
    }
}

void FrontierView::draw_timeline(Context& ctx, float height) {
    const float fs = ImGui::GetFontSize();
    std::vector<ui::LegendEntry> legend = {{"forward", ui::bar_kind_colour(ctx.view.theme, ui::BarKind::forward)},
                                           {"backward", ui::bar_kind_colour(ctx.view.theme, ui::BarKind::backward)},
                                           {"Adam update", ui::bar_kind_colour(ctx.view.theme, ui::BarKind::update)}};
    for (int ib = 0; ib < 2; ++ib)
        if (!m_link_legend[ib].empty()) legend.push_back({m_link_legend[ib].c_str(), ctx.view.theme.link(link_type(ib == 1))});
    const float y_before = ImGui::GetCursorPosY();
    ui::timeline_legend(legend);
    const float box = std::max(height - (ImGui::GetCursorPosY() - y_before), fs * 3.0f);
    ui::TimelineOptions o;
    o.start = 0;
    o.end = m_estimate.step_time_s;
    o.cursor = -1;
    const int n = static_cast<int>(m_rows.size());
    o.row_height = std::clamp((box - fs * 1.4f) / static_cast<float>(std::max(n, 1)), fs * 1.05f, fs * 1.5f);
    const float need = ui::timeline_height(n, o);
    ui::TimelineResult r;
    if (need <= box) {
        r = ui::draw_timeline(ctx.view, "frontier_step", m_rows, o, ImVec2(ImGui::GetContentRegionAvail().x, need));
    } else {  // many stages: the rows scroll, only the visible ones are drawn
        ImGui::BeginChild("frontier_step_rows", ImVec2(0, box), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
        r = ui::draw_timeline(ctx.view, "frontier_step", m_rows, o, ImVec2(ImGui::GetContentRegionAvail().x, need));
        ImGui::EndChild();
    }
    if (r.hovered_row >= 0 && r.hovered_bar >= 0) {
        const ui::TimelineBar& b = m_rows[static_cast<std::size_t>(r.hovered_row)].bars[static_cast<std::size_t>(r.hovered_bar)];
        ImGui::SetTooltip("stage %d: %s, %s to %s", r.hovered_row + 1,
                          m_bar_link[static_cast<std::size_t>(r.hovered_row)][static_cast<std::size_t>(r.hovered_bar)]
                              ? "transfer"
                              : ui::bar_kind_name(b.kind),
                          core::format_seconds(b.start).c_str(), core::format_seconds(b.end).c_str());
    }
}

// [SECTION] search and assumptions ----------------------------------------------------------

void FrontierView::draw_search(Context& ctx) {
    const auto& th = ctx.view.theme;
    const std::string button = "Find the best layouts for " + core::format_count(m_settings.layout.gpus) + " GPUs";
    if (ImGui::Button(button.c_str())) run_search();
    ctx.items.note("frontier_search_button");
    if (!m_search) {
        ImGui::SameLine();
        ImGui::TextDisabled("(up to a few tenths of a second)");
        static const std::string how =
            "Tries every TP (1, 2, 4, 8) x CP x PP x DP (and EP for a mixture of experts) that splits this batch "
            "evenly, with every ZeRO stage, recompute, micro-batch, 1F1B and interleaved with 2, 4 or 8 chunks, keeping "
            "this attention kernel and overlap; ranks those that fit by a closed-form step time, then times the "
            "fastest pass by pass.";
        m_wrap.text(th.text_dim, how);
        return;
    }
    const core::SearchResult& r = *m_search;
    ImGui::SameLine();
    ImGui::TextDisabled("%s valid layouts, %s fit in memory. Click a row to use it.", core::format_count(r.candidates).c_str(),
                        core::format_count(r.fitting).c_str());
    if (r.best.empty()) {
        std::string why = "No layout of " + core::format_count(m_settings.layout.gpus) + " GPUs fits in memory.";
        if (r.smallest)
            why += " The smallest needs " + bytes_text(r.smallest->memory_bytes) + " per GPU (" +
                   core::layout_words(r.smallest->layout) + "); more GPUs would let it fit.";
        m_wrap.text(th.warning, why);
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("frontier_best", 7, flags)) return;
    const std::string days = "days on " + words(m_settings.tokens);
    for (const char* h : {"TP x PP x DP", "micro-batch", "step", "tokens/s", "MFU", "per GPU"}) ImGui::TableSetupColumn(h);
    ImGui::TableSetupColumn(days.c_str());
    ImGui::TableHeadersRow();
    const core::Layout& cur = m_settings.layout;
    for (std::size_t i = 0; i < r.best.size(); ++i) {
        const core::LayoutScore& sc = r.best[i];
        const core::Layout& l = sc.layout;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        char label[64];
        std::snprintf(label, sizeof label, "%d x %d x %d##best%zu", l.tp, l.pp, l.dp, i);
        const bool current = l.tp == cur.tp && l.pp == cur.pp && l.dp == cur.dp && l.micro_batch == cur.micro_batch;
        if (ImGui::Selectable(label, current, ImGuiSelectableFlags_SpanAllColumns) && !current && apply_search_row(i)) {
            ImGui::EndTable();  // the row's layout is applied; the list may have been replaced
            return;
        }
        const std::string hook = "frontier_best_" + std::to_string(i);
        ctx.items.note(hook);
        ImGui::TableNextColumn();
        ImGui::Text("%lld", static_cast<long long>(l.micro_batch));
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(core::format_seconds(sc.step_time_s).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(core::format_count(std::llround(sc.tokens_per_s)).c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%.1f%%", sc.mfu * 100);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(bytes_text(sc.memory_bytes).c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", m_settings.tokens / sc.tokens_per_s / 86400.0);
    }
    ImGui::EndTable();
}

void FrontierView::draw_assumptions(Context& ctx) {
    const auto& th = ctx.view.theme;
    if (!m_links_text.empty()) m_wrap.text(th.text, m_links_text);
    ImGui::TextDisabled("Hardware figures and where they come from");
    ui::sources_marker(m_gpu_sources);
    static const std::string memory_model =
        "Memory: 16 bytes per parameter (bf16 weights and gradients; fp32 master weights, Adam's momentum and "
        "variance), activations as Korthikanti et al. 2022 count them.";
    static const std::string waiting = "The estimate's assumptions appear once the layout can run.";
    if (m_problem) {
        m_wrap.bullet(th.text_dim, memory_model);
        m_wrap.bullet(th.text_dim, waiting);
        return;
    }
    for (const std::string& a : m_estimate.assumptions) m_wrap.bullet(th.text_dim, a);
}

// [SECTION] state ---------------------------------------------------------------------------

std::string FrontierView::status() const {
    const core::Layout& l = m_settings.layout;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "frontier open=%d model=%s gpu=%s gpus=%d tp=%d pp=%d dp=%d micro_batch=%lld global_batch=%lld "
                  "schedule=%s recompute=%s attention=%s zero=%d state_bytes=%.6g fits_one_gpu=%d min_gpus=%d problem=%s "
                  "step_s=%.6g mfu=%.4g fits=%d search=%d",
                  is_open() ? 1 : 0, m_settings.model.c_str(), m_settings.gpu.c_str(), l.gpus, l.tp, l.pp, l.dp,
                  static_cast<long long>(l.micro_batch), static_cast<long long>(l.global_batch),
                  std::string(core::schedule_kind_name(l.schedule)).c_str(), std::string(core::recompute_name(l.recompute)).c_str(),
                  std::string(core::attention_name(l.attention)).c_str(), l.zero_stage, state_bytes(),
                  state_bytes() <= m_setup.gpu.memory_bytes ? 1 : 0, m_min_gpus, m_problem ? m_problem->field.c_str() : "none",
                  m_problem ? 0.0 : m_estimate.step_time_s, m_problem ? 0.0 : m_estimate.mfu,
                  !m_problem && m_estimate.memory.fits ? 1 : 0, m_search ? static_cast<int>(m_search->best.size()) : -1);
    return buf;
}

nlohmann::json FrontierView::save_state() const {
    const core::Layout& l = m_settings.layout;
    return {{"model", m_settings.model},
            {"gpu", m_settings.gpu},
            {"tokens", m_settings.tokens},
            {"gpus", l.gpus},
            {"tp", l.tp},
            {"pp", l.pp},
            {"dp", l.dp},
            {"micro_batch", l.micro_batch},
            {"global_batch", l.global_batch},
            {"schedule", std::string(core::schedule_kind_name(l.schedule))},
            {"chunks", l.chunks},
            {"recompute", std::string(core::recompute_name(l.recompute))},
            {"attention", std::string(core::attention_name(l.attention))},
            {"zero", l.zero_stage},
            {"cp", l.cp},
            {"ep", l.ep},
            {"hybrid_shard", l.hybrid_shard},
            {"overlap", l.overlap},
            {"open", m_tab.open_or_opening()}};
}

void FrontierView::load_state(const nlohmann::json& j, const std::string& where) {
    const SavedState in(j, where);
    Settings s = m_settings;
    in.text("model", s.model);
    in.text("gpu", s.gpu);
    in.number("tokens", s.tokens);
    core::Layout& l = s.layout;
    in.whole("gpus", l.gpus, 1, static_cast<std::int64_t>(core::max_cluster_gpus));
    in.whole("tp", l.tp, 1, max_whole);
    in.whole("pp", l.pp, 1, max_whole);
    in.whole("dp", l.dp, 1, max_whole);
    in.whole("micro_batch", l.micro_batch, 1, max_whole);
    in.whole("global_batch", l.global_batch, 1, max_whole);
    in.whole("chunks", l.chunks, 2, 64);
    in.whole("zero", l.zero_stage, 0, 3);
    in.whole("cp", l.cp, 1, max_whole);
    in.whole("ep", l.ep, 1, max_whole);
    in.flag("hybrid_shard", l.hybrid_shard);
    in.flag("overlap", l.overlap);
    in.choice("schedule", l.schedule,
              {{"1f1b", core::ScheduleKind::one_f_one_b}, {"gpipe", core::ScheduleKind::gpipe},
               {"interleaved", core::ScheduleKind::interleaved}});
    in.choice("recompute", l.recompute,
              {{"none", core::Recompute::none}, {"selective", core::Recompute::selective}, {"full", core::Recompute::full}});
    in.choice("attention", l.attention,
              {{"standard", core::AttentionKernel::standard}, {"flash", core::AttentionKernel::flash}});
    apply_then_open(in, m_tab, [&] { apply(s); });
}

}  // namespace m2m::lessons
