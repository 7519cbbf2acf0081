// Lesson 3's GPU cards in words: each GPU's place in the split and footer, and at any moment of
// the step what it runs and what it is doing, so the panel only picks what fits and draws it.
#include "m2m/core/split/split_card.hpp"

#include <algorithm>

#include "m2m/core/engine/text.hpp"

namespace m2m::core {

namespace {

const std::string dot = " \xc2\xb7 ";

// "node 0 · copy 1 · slice 2" and the shorter ways to say where a GPU sits in the split.
void place_words(const SplitResult& r, const GpuHolding& h, GpuCardWords& w) {
    const SplitDegrees& d = r.degrees;
    std::string place, letters;
    auto add = [&](int ways, const char* word, const char* letter, int rank) {
        if (ways <= 1) return;
        place += dot + word + " " + std::to_string(rank + 1);
        letters += (letters.empty() ? "" : " ") + std::string(letter) + std::to_string(rank + 1);
    };
    if (d.sharded)
        add(d.data, "shard", "S", h.data_rank);
    else
        add(d.data, "copy", "D", h.data_rank);
    add(d.tensor, "slice", "T", h.tensor_rank);
    add(d.pipeline, "stage", "P", h.stage);
    const std::string node = "node " + std::to_string(h.node);
    const std::string role = node + place;
    w.roles = {role, place.empty() ? role : place.substr(dot.size()), node};
    if (!place.empty()) w.places = {place.substr(dot.size()), letters};
}

void footer_words(const GpuHolding& h, GpuCardWords& w) {
    const std::string params = format_count(h.parameters) + " parameters";
    const std::string bytes = format_bytes(static_cast<double>(h.bytes.total()));
    w.footer = {params + dot + bytes + dot + std::to_string(h.prompts) + " prompts", params + dot + bytes, bytes};
}

}  // namespace

SplitCards::SplitCards(const SplitResult& r) {
    const StepTimeline& step = r.step;
    m_lookup.assign(step.gpus.size(), Lookup{});
    m_words.assign(r.gpus.size(), GpuCardWords{});
    for (std::size_t g = 0; g < r.gpus.size(); ++g) {
        place_words(r, r.gpus[g], m_words[g]);
        footer_words(r.gpus[g], m_words[g]);
    }
    for (std::size_t g = 0; g < step.gpus.size(); ++g) {
        Lookup& lk = m_lookup[g];
        const auto& tasks = step.gpus[g].tasks;
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const StepTask& t = tasks[i];
            const int index = static_cast<int>(i);
            if (t.kind == StepTaskKind::communication) {
                lk.exchanges.push_back(index);
                lk.exchange_end_max.push_back(std::max(lk.exchange_end_max.empty() ? 0.0 : lk.exchange_end_max.back(), t.end_s()));
            } else if (t.kind == StepTaskKind::idle) {
                lk.idles.push_back(index);
            } else {
                lk.kernels.push_back(index);
            }
            if (g < m_words.size()) m_words[g].tasks.push_back(step_task_text(r, t));
        }
    }
}

StepActivity SplitCards::activity(const SplitResult& r, int gpu, double t) const {
    StepActivity a;
    if (gpu < 0 || gpu >= static_cast<int>(m_lookup.size()) || t <= 0) return a;
    const Lookup& lk = m_lookup[static_cast<std::size_t>(gpu)];
    const auto& tasks = r.step.gpus[static_cast<std::size_t>(gpu)].tasks;
    auto start_after = [&](double v, int i) { return v < tasks[static_cast<std::size_t>(i)].start_s(); };
    // Kernels and idle gaps never overlap on one GPU: the last one starting at or before t.
    auto last_running = [&](const std::vector<int>& ids) {
        const auto it = std::upper_bound(ids.begin(), ids.end(), t, start_after);
        if (it == ids.begin()) return -1;
        const int i = *(it - 1);
        return t < tasks[static_cast<std::size_t>(i)].end_s() ? i : -1;
    };
    a.kernel = last_running(lk.kernels);
    a.idle = a.kernel < 0 ? last_running(lk.idles) : -1;
    // Exchanges may overlap each other: walk back while an earlier one could still be running.
    const auto it = std::upper_bound(lk.exchanges.begin(), lk.exchanges.end(), t, start_after);
    for (auto k = static_cast<std::size_t>(it - lk.exchanges.begin()); k-- > 0;) {
        if (lk.exchange_end_max[k] <= t) break;
        if (t < tasks[static_cast<std::size_t>(lk.exchanges[k])].end_s()) {
            a.exchange = lk.exchanges[k];
            break;
        }
    }
    return a;
}

GpuCardMoment SplitCards::moment(const SplitResult& r, int gpu, double t) const {
    GpuCardMoment m;
    m.activity = activity(r, gpu, t);
    const auto& tasks = r.step.gpus[static_cast<std::size_t>(gpu)].tasks;
    const auto& texts = words(gpu).tasks;
    const StepActivity& a = m.activity;
    m.held = &r.gpus[static_cast<std::size_t>(gpu)].neurons;
    if (a.kernel >= 0) m.kernel = &tasks[static_cast<std::size_t>(a.kernel)];
    if (a.exchange >= 0) m.exchange = &r.exchanges[static_cast<std::size_t>(tasks[static_cast<std::size_t>(a.exchange)].exchange)];
    const StepTask* k = m.kernel;
    const Exchange* ex = m.exchange;
    if (k) {
        const std::string kind(step_task_kind_name(k->kind));
        m.doing = {texts[static_cast<std::size_t>(a.kernel)]};
        if (k->layer >= 0) m.doing.push_back(kind + dot + r.layers[static_cast<std::size_t>(k->layer)].name);
        if (ex) m.doing.push_back(m.doing.back() + " + " + std::string(exchange_op_name(ex->op)));
        m.doing.push_back(kind);
        m.updating = k->kind == StepTaskKind::update;
        m.active_layer = m.updating ? -1 : k->layer;
    } else if (ex) {
        const std::string op(exchange_op_name(ex->op));
        m.doing = {texts[static_cast<std::size_t>(a.exchange)], op + dot + std::string(link_type_label(ex->link)), op};
    } else if (a.idle >= 0) {
        m.doing = {texts[static_cast<std::size_t>(a.idle)], "idle"};
    } else {
        m.doing = {t <= 0 ? "ready" : "step done"};
    }
    if (r.degrees.sharded && r.degrees.data > 1) {  // FSDP: the layer it has borrowed whole, if any
        if (k && (k->kind == StepTaskKind::forward || k->kind == StepTaskKind::backward)) {
            m.borrowed_layer = k->layer;
        } else if (!k) {
            const int gather = gather_running(r, gpu, t);
            m.borrowed_layer = gather < 0 ? -1 : tasks[static_cast<std::size_t>(gather)].layer;
            m.borrowed_arriving = gather >= 0;
            if (gather >= 0)
                m.borrowed_link = r.exchanges[static_cast<std::size_t>(tasks[static_cast<std::size_t>(gather)].exchange)].link;
        }
    }
    return m;
}

int SplitCards::gather_running(const SplitResult& r, int gpu, double t) const {
    const Lookup& lk = m_lookup[static_cast<std::size_t>(gpu)];
    const auto& tasks = r.step.gpus[static_cast<std::size_t>(gpu)].tasks;
    const auto it = std::upper_bound(lk.exchanges.begin(), lk.exchanges.end(), t,
                                     [&](double v, int i) { return v < tasks[static_cast<std::size_t>(i)].start_s(); });
    for (auto k = static_cast<std::size_t>(it - lk.exchanges.begin()); k-- > 0;) {
        if (lk.exchange_end_max[k] <= t) break;
        const StepTask& c = tasks[static_cast<std::size_t>(lk.exchanges[k])];
        if (t < c.end_s() && r.exchanges[static_cast<std::size_t>(c.exchange)].op == ExchangeOp::all_gather) return lk.exchanges[k];
    }
    return -1;
}

}  // namespace m2m::core
