// Lesson 1's scene: both machines running the same network, their clocks on one axis, the
// readouts (hidden until the guess is revealed) and the plots: speedup against width or batch,
// and in hardware mode the roofline; in presenter view, the guess and the width above them.
//
// [SECTION] frame state   [SECTION] scene   [SECTION] presenter strip   [SECTION] machines
// [SECTION] readouts and plots
#include "lessons/layers/layer_run_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <utility>

#include "lessons/layers/roofline_view.hpp"
#include "m2m/core/engine/text.hpp"
#include "ui/theme.hpp"
#include "ui/view.hpp"
#include "ui/widgets.hpp"

namespace m2m::lessons {

// [SECTION] frame state ---------------------------------------------------------------------

LayerRunPanel::MachineFrame LayerRunPanel::frame_of(const core::MachineRun& m, double cursor, bool gpu) const {
    const auto& widths = m_setup.network.widths;
    const auto& spans = gpu ? m_gpu_spans : m_cpu_spans;
    MachineFrame f;
    f.network.widths = widths;
    f.network.done.assign(widths.size(), 0);
    f.network.active.assign(widths.size(), 0);
    f.network.states.resize(widths.size());
    f.network.done[0] = widths[0];
    // Each cell is a square; 128 on a GPU still read as "thousands of cores" (an H100's 16,896 are
    // 132 a square, about one streaming multiprocessor's 128), where 512 cost ~3 ms a frame under
    // llvmpipe, which pays for every small square's edges.
    const std::uint32_t max_cells = gpu ? 128u : 64u;
    const std::uint32_t cells = std::min(m.cores, max_cells);
    f.cores_per_cell = (m.cores + cells - 1) / cells;
    f.cell_busy.assign(cells, 0.0f);
    std::vector<std::uint32_t> busy(cells, 0);
    for (std::size_t l = 1; l < widths.size(); ++l) {
        const int w = widths[l];
        const bool drawn = w <= ui::max_drawn_neurons;
        if (drawn) f.network.states[l].assign(static_cast<std::size_t>(w), ui::NeuronState::waiting);
        const auto [s, e] = spans[l - 1];
        if (cursor >= static_cast<double>(e)) {  // layer finished: no need to look at its tasks
            f.network.done[l] = w;
            if (drawn) std::fill(f.network.states[l].begin(), f.network.states[l].end(), ui::NeuronState::done);
            continue;
        }
        if (cursor <= 0 || cursor < static_cast<double>(s)) continue;  // at zero nothing has started yet
        f.active_layer = static_cast<int>(l);
        for (int i = 0; i < w; ++i) {
            const auto& r = m.timeline.runs[m.layer_first_task[l - 1] + static_cast<core::TaskId>(i)];
            ui::NeuronState st = ui::NeuronState::waiting;
            if (cursor >= static_cast<double>(r.end)) {
                st = ui::NeuronState::done;
                ++f.network.done[l];
            } else if (cursor >= static_cast<double>(r.start)) {
                st = ui::NeuronState::active;
                ++f.network.active[l];
                const std::uint32_t core = r.resource;  // the graph has one pool, whose first member is 0
                ++busy[std::min<std::uint32_t>(core / f.cores_per_cell, cells - 1)];
            }
            if (drawn) f.network.states[l][static_cast<std::size_t>(i)] = st;
        }
    }
    for (std::size_t l = 1; l < widths.size(); ++l) f.done += f.network.done[l];
    for (std::uint32_t c = 0; c < cells; ++c)
        f.cell_busy[c] = static_cast<float>(busy[c]) / static_cast<float>(f.cores_per_cell);
    return f;
}

// [SECTION] scene ---------------------------------------------------------------------------

void LayerRunPanel::draw_scene(float height) {
    const float fs = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    // At least 13 font sizes: the default network's neurons keep a radius of 10 px on a 1024x768
    // projector at 1.5x (issue 16).
    const float machine_h = std::max(fs * 13.0f, height * 0.5f);
    const ImVec2 card((avail.x - gap) * 0.5f, machine_h);
    draw_machine(m_story.cpu, m_result.cpu, false, card);
    ImGui::SameLine();
    draw_machine(m_story.gpu, m_result.gpu, true, card);
    draw_clocks();
    ImGui::Separator();
    draw_readouts();
    const float plot_h = std::max(fs * 9.0f, ImGui::GetContentRegionAvail().y - fs * 0.5f);
    if (m_setup.mode != core::TimingMode::hardware) {
        draw_plot(ImVec2(ImGui::GetContentRegionAvail().x, plot_h));
        return;
    }
    const float w = ImGui::GetContentRegionAvail().x;
    if (w < fs * 36) {  // a narrow scene: one plot under the other
        draw_roofline(m_ctx.view, m_result, ImVec2(w, plot_h), m_revealed);
        draw_plot(ImVec2(w, plot_h));
        return;
    }
    draw_roofline(m_ctx.view, m_result, ImVec2((w - gap) * 0.55f, plot_h), m_revealed);
    ImGui::SameLine();
    ImGui::BeginGroup();
    draw_plot(ImVec2((w - gap) * 0.45f, plot_h));
    ImGui::EndGroup();
}

// [SECTION] presenter strip ---------------------------------------------------------------

// Presenter view keeps the question in the room: the guess and the width on one row above the
// scene, so a teacher takes the class's answer and widens the layers without leaving it (Space runs).
void LayerRunPanel::draw_presenter_strip() {
    // One row: the guess always (its question shortened on a narrow window), the width where it fits.
    const float fs = ImGui::GetFontSize();
    const char* long_label = "\xc3\x97 sooner on the GPU?###strip_guess";
    const bool wide = ui::button_width("your guess") + ImGui::CalcTextSize(long_label, nullptr, true).x + fs * 12.0f <= ImGui::GetContentRegionAvail().x;
    const char* guess_label = wide ? long_label : "\xc3\x97 sooner?###strip_guess";
    const float box_w = ui::button_width("your guess");  // the empty box's words fit it
    ImGui::SetNextItemWidth(box_w);
    draw_guess_box(guess_label);
    ui::label_focuses_field({guess_label, box_w});  // a click on the question types into the box
    m_ctx.items.note("strip_guess");
    if (m_setup.network.widths.size() > 2 && ui::beside_if_fits(fs * 7.0f + ImGui::CalcTextSize("Width").x, fs)) {
        ImGui::SetNextItemWidth(fs * 7.0f);
        if (width_slider("Width##strip")) recompute();
        m_ctx.items.note("strip_width");
    }
    // The keys for the question, where the row has room for them (G: the guess, while it is open).
    ui::run_key_hint(playback(), !guess_locked());
}

void LayerRunPanel::draw_guess_box(const char* label) {
    // Locked: read-only and greyed, but still a field that takes the keyboard when clicked, so
    // digits typed into it do not fall through to the lesson keys (1-4 switch lessons).
    const bool locked = guess_locked();
    if (locked) ImGui::PushStyleVar(ImGuiStyleVar_Alpha, ImGui::GetStyle().DisabledAlpha);
    ImGui::InputFloat(label, &m_guess, 0, 0, m_guess > 0 ? "%.3g" : locked ? "no guess" : "your guess",
                      locked ? ImGuiInputTextFlags_ReadOnly : 0);
    if (std::exchange(m_focus_guess, false) && !locked) ui::type_into_last_item();  // G
    if (locked) ImGui::PopStyleVar();
    if (locked && ImGui::IsItemHovered())
        ui::tooltip_wrapped("The guess is in once the run starts: change a setting to guess again.", 24);
    m_guess = std::clamp(m_guess, 0.0f, 1e9f);
}

bool LayerRunPanel::width_slider(const char* label) {
    auto& w = m_setup.network.widths;
    if (!ImGui::SliderInt(label, &m_uniform_width, 1, core::max_layer_width, "%d",
                          ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic))
        return false;
    std::fill(w.begin() + 1, w.end() - 1, m_uniform_width);
    return true;
}

// [SECTION] machines ------------------------------------------------------------------------

void LayerRunPanel::draw_machine(const core::MachineWords& words, const core::MachineRun& m, bool gpu, ImVec2 size) {
    const auto& th = m_ctx.view.theme;
    const ImU32 colour = gpu ? th.gpu : th.cpu;
    ImGui::BeginChild(gpu ? "gpu" : "cpu", size, true, ImGuiWindowFlags_NoScrollbar);
    const MachineFrame f = frame_of(m, m_playback.cursor(), gpu);
    ImGui::PushTextWrapPos(0.0f);  // on a narrow card (a 1024x768 projector) the words wrap rather than being cut
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(words.header.c_str());
    ImGui::PopStyleColor();
    if (ImGui::GetItemRectSize().x + ImGui::CalcTextSize(words.subtitle.c_str()).x + ImGui::GetFontSize() <
        ImGui::GetContentRegionAvail().x)
        ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, th.text_dim);
    ImGui::TextUnformatted(words.subtitle.c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();

    // The height left for the drawing: the card less its title (as many lines as it took), the
    // lines under the cores and the padding. The network is the main figure: the cores take a fifth,
    // and no more than one row of squares when they fit one (lesson timing's 1 and 6 cores).
    const float fs = ImGui::GetFontSize();
    const ImGuiStyle& st = ImGui::GetStyle();
    const float below = static_cast<float>(f.cores_per_cell > 1 ? 2 : 1) * ImGui::GetTextLineHeightWithSpacing() +
                        st.WindowPadding.y + st.ItemSpacing.y * 2.0f;
    const float room = std::max(fs * 2.0f, size.y - ImGui::GetCursorPosY() - below);
    const float cores_h = f.cell_busy.size() <= 16 ? std::min(room * 0.2f, fs * 1.2f) : room * 0.2f;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const float net_h = std::max(fs, room - cores_h);
    const float r = ui::draw_network(m_ctx.view.theme, f.network, p, ImVec2(p.x + w, p.y + net_h), colour);
    m_neuron_radius = gpu ? std::min(m_neuron_radius, r) : r;  // the CPU's card draws first
    ImGui::Dummy(ImVec2(w, net_h));
    draw_cores(f, gpu, ImVec2(w, std::max(fs * 0.5f, cores_h)));
    draw_progress(f, words, gpu, w);
    ImGui::EndChild();
}

// The cores: a few big boxes on the CPU, a grid of small squares on the GPU.
void LayerRunPanel::draw_cores(const MachineFrame& f, bool gpu, ImVec2 size) {
    const auto& th = m_ctx.view.theme;
    const ImU32 colour = gpu ? th.gpu : th.cpu;
    const float fs = ImGui::GetFontSize(), w = size.x, cores_h = size.y;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 c0 = ImGui::GetCursorScreenPos();
    const int cells = static_cast<int>(f.cell_busy.size());
    const int cols = gpu ? std::max(1, static_cast<int>(std::ceil(std::sqrt(cells * w / std::max(cores_h, 1.0f)))))
                         : std::min(cells, 16);
    const int rows = (cells + cols - 1) / cols;
    const float cw = std::min(w / static_cast<float>(cols), gpu ? 1e9f : fs * 4.0f);
    const float ch = std::min(cores_h / static_cast<float>(rows), gpu ? cw : fs * 2.2f);
    for (int i = 0; i < cells; ++i) {
        const float x = c0.x + cw * static_cast<float>(i % cols), y = c0.y + ch * static_cast<float>(i / cols);
        const float busy = f.cell_busy[static_cast<std::size_t>(i)];
        const ImU32 fill = busy > 0 ? ui::fade(colour, 0.35f + 0.65f * busy) : th.idle;
        const float pad = std::max(1.0f, std::min(cw, ch) * 0.08f);
        // Square corners on a grid (a GPU, a server CPU's many cores): a rounded rect costs ~10x the
        // vertices of a plain quad. A few big boxes (a laptop's cores) keep round ones.
        dl->AddRectFilled(ImVec2(x + pad, y + pad), ImVec2(x + cw - pad, y + ch - pad), fill, gpu || cells > 16 ? 0.0f : 4.0f);
    }
    ImGui::Dummy(size);
}

// The lines under the cores, each in the longest wording that fits the card.
void LayerRunPanel::draw_progress(const MachineFrame& f, const core::MachineWords& words, bool gpu, float w) {
    const auto& th = m_ctx.view.theme;
    auto line = [&](ImU32 c, std::initializer_list<std::string> options) {
        const std::string* pick = std::prev(options.end());  // the shortest, wrapped if even that is too wide
        for (const std::string& o : options)
            if (ImGui::CalcTextSize(o.c_str()).x <= w) {
                pick = &o;
                break;
            }
        ImGui::PushStyleColor(ImGuiCol_Text, c);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(pick->c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
    };
    const std::string per_cell = core::format_count(f.cores_per_cell);
    if (f.cores_per_cell > 1) line(th.text_dim, {"each square: " + per_cell + " cores", per_cell + " cores each"});
    const std::int64_t total = m_result.neurons;
    const std::string done = core::format_count(f.done), all = core::format_count(total);
    const std::string& time = gpu ? m_story.gpu_time : m_story.cpu_time;
    if (m_playback.cursor() <= 0)
        line(th.text, {"ready"});
    else if (f.done >= total)
        line(th.text, {"done: " + all + " neurons in " + time, "done in " + time, "done"});
    else if (f.active_layer > 0)
        line(th.text, {"layer " + std::to_string(f.active_layer) + " of " + std::to_string(m_setup.network.widths.size() - 1) +
                           " \xc2\xb7 " + done + " of " + all + " neurons done",
                       done + " of " + all + " neurons done", done + " of " + all});
    else
        line(th.text, {words.waiting + "\xe2\x80\xa6"});
}

// [SECTION] readouts and plots --------------------------------------------------------------

// Before the reveal the faster machine ends at 80% of the axis, and after that the axis grows
// with the clock, the cursor staying at 80%: the bars show the time so far, not the answer.
double clock_axis(double cpu, double gpu, double cursor, bool revealed) {
    const double fast = std::min(cpu, gpu);
    if (revealed) return std::min(std::max(cpu, gpu), 40.0 * fast);
    return std::min(std::max(cursor, fast) * 1.25, 40.0 * fast);
}

double clock_bar_end(double finish, double cursor, double axis, bool revealed) {
    if (revealed || cursor >= finish) return finish;
    return cursor >= axis ? std::nextafter(axis, finish) : axis;
}

void LayerRunPanel::draw_clocks() {
    const auto& th = m_ctx.view.theme;
    const double cpu = static_cast<double>(m_result.cpu.finish), gpu = static_cast<double>(m_result.gpu.finish);
    const double cur = m_playback.cursor();
    // One axis for both (a bar past it runs off the edge); until the reveal it grows with the clock.
    const double axis = clock_axis(cpu, gpu, cur, m_revealed);
    const float h = ImGui::GetFontSize() * 1.3f;
    // Each machine's total shows once it has finished, or once the run has revealed the answer.
    auto right = [&](double finish, const std::string& total) {
        if (cur >= finish) return "done in " + total;
        return m_revealed ? "of " + total : std::string("of ?");
    };
    // Nor does the outline of an unfinished machine's bar: it fills the axis until then, and runs
    // off its edge once the clock passes a capped axis (it had stood full, as if finished).
    auto shown = [&](double finish) { return clock_bar_end(finish, cur, axis, m_revealed); };
    ui::time_bar(m_ctx.view, "CPU", cur, shown(cpu), axis, th.cpu, right(cpu, m_story.cpu_time), h);
    ui::time_bar(m_ctx.view, "GPU", cur, shown(gpu), axis, th.gpu, right(gpu, m_story.gpu_time), h);
}

void LayerRunPanel::draw_readouts() {
    const auto& th = m_ctx.view.theme;
    const bool gpu_faster = m_result.gpu.finish < m_result.cpu.finish;
    // Side by side while they fit; on a narrow scene the next one starts a new line. Until the
    // run reveals it, the speedup is a "?" under a label that gives nothing away.
    std::vector<ui::Readout> items = {{"NEURONS", core::format_count(m_result.neurons), th.text},
                                      {"PARAMETERS", core::format_count(m_result.parameters), th.text}};
    if (m_setup.mode == core::TimingMode::hardware) items.push_back({"BATCH", core::format_count(m_setup.batch), th.text});
    if (!m_revealed)
        items.push_back({"CPU TIME / GPU TIME", "?", th.accent});
    else
        items.push_back({gpu_faster ? "GPU FINISHES SOONER BY" : "GPU IS NOT FASTER: CPU TIME / GPU TIME", m_story.speedup,
                         gpu_faster ? th.gpu : th.warning});
    if (m_guess > 0 && m_revealed) {
        // Three figures, or a whole number with its commas from 1,000 on: "1e+09" read as a typo.
        const std::string guess = m_guess < 1000 ? core::format_significant(m_guess, 3) : core::format_count(std::llround(m_guess));
        items.push_back({"YOUR GUESS", "You guessed " + guess + "\xc3\x97; the run says " + m_story.speedup + ".", th.accent});
    }
    ui::readouts(m_ctx.view.theme, items, ImGui::GetFontSize() * 2.5f);
    if (m_revealed) {
        ui::text_wrapped_coloured(gpu_faster ? th.text : th.warning, m_story.verdict);
        return;
    }
    // Once the run has started the guess is in (guess_locked): no more asking for one.
    const std::string ask = !guess_locked() ? "Guess how many times sooner the GPU finishes, then press Run (Space): the answer "
                                              "shows when both machines are done."
                            : m_guess > 0   ? "Your guess is in: the answer shows when both machines are done."
                                            : "The answer shows when both machines are done.";
    ui::text_wrapped_coloured(th.text, m_story.reuse.empty() ? ask : m_story.reuse + " " + ask);
}

// Speedup against the hidden width, or in hardware mode against the batch; until the reveal the
// curve is not drawn and the "now" marker says "?".
void LayerRunPanel::draw_plot(ImVec2 size) {
    const auto& th = m_ctx.view.theme;
    const bool hw = m_setup.mode == core::TimingMode::hardware;
    if (hw) {
        int by_batch = m_plot_vs_batch ? 1 : 0;
        ImGui::TextUnformatted("Speedup against");
        ImGui::SameLine();
        ImGui::RadioButton("width", &by_batch, 0);
        m_ctx.items.note("plot_vs_width");
        ImGui::SameLine();
        ImGui::RadioButton("batch", &by_batch, 1);
        m_ctx.items.note("plot_vs_batch");
        m_plot_vs_batch = by_batch == 1;
        size.y -= ImGui::GetFrameHeightWithSpacing();
    }
    const bool by_batch = hw && m_plot_vs_batch;
    if (!by_batch && m_setup.network.widths.size() < 3) {
        ui::text_wrapped_coloured(th.text_dim, "Add a hidden layer (Hidden layers, in the controls) to plot the speedup against its width.");
        return;
    }
    const auto& sweep = by_batch ? m_batch_sweep : m_sweep;
    const ui::PlotSeries s = speedup_curve(sweep, m_revealed, th.gpu);
    // "now" on the width curve only where every hidden layer has the one width the curve assumes.
    const auto hidden = hidden_widths();
    const bool on_curve = by_batch || std::all_of(hidden.begin(), hidden.end(), [&](int w) { return w == hidden.front(); });
    const double now = by_batch ? m_setup.batch : m_uniform_width;
    std::vector<ui::PlotMarker> markers;
    if (on_curve) markers.push_back({now, m_revealed ? "now: " + m_story.speedup : std::string("now: ?"), th.accent});
    if (m_crossover && *m_crossover > 1 && !by_batch && m_revealed)
        markers.push_back({static_cast<double>(*m_crossover), "GPU pulls ahead", th.nvlink});
    const float text_h = hw ? ImGui::GetFontSize() * 2.6f : 0;
    ui::log_log_plot(m_ctx.view, "speedup", {s}, markers,
                     by_batch ? "batch (inputs run together)" : "width of every hidden layer (neurons)",
                     "CPU time / GPU time", ImVec2(size.x, std::max(size.y - text_h, ImGui::GetFontSize() * 6)), 1.0);
    if (hw)
        ui::text_wrapped_coloured(th.text_dim, !m_revealed ? "The curve shows once the run is done."
                                               : by_batch  ? core::batch_sweep_text(m_batch_sweep)
                                                           : m_story.crossover);
}

}  // namespace m2m::lessons
