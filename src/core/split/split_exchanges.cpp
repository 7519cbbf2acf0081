// What the GPUs of Lesson 3's split exchange in one step: tensor-parallel all-gathers and
// reduce-scatters, pipeline sends, the data-parallel all-reduce of gradients, and FSDP's gathers
// of weights and reduce-scatters of their gradients.
#include <algorithm>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/rack/collective_cost.hpp"
#include "m2m/core/split/split.hpp"
#include "split_parts.hpp"

namespace m2m::core {

namespace {

using namespace split_detail;

LinkType group_link(const SplitSetup& s, const std::vector<int>& gpus) {
    for (int g : gpus)
        if (node_of(s, g) != node_of(s, gpus.front())) return LinkType::infiniband;
    return LinkType::nvlink;
}

// Lists the step's exchanges in the order the lesson shows them: forward, backward, update.
class ExchangePlanner {
public:
    explicit ExchangePlanner(const SplitResult& r)
        : m_r(r), m_d(r.degrees), m_rows(step_prompts / m_d.data / r.micro_batches),
          m_layers(static_cast<int>(r.layers.size())) {}

    std::vector<Exchange> plan() {
        if (m_d.sharded) {
            if (m_d.data > 1) sharded();
            return std::move(m_out);
        }
        forward();
        backward();
        update();
        return std::move(m_out);
    }

private:
    int width(int l) const { return m_r.layers[static_cast<std::size_t>(l)].neurons; }
    /// A layer as a sentence names it: "the embedding", "hidden 2", "the output layer".
    std::string name(int l) const {
        const std::string& n = m_r.layers[static_cast<std::size_t>(l)].name;
        return n == "output" ? "the output layer" : n == "embedding" ? "the embedding" : n;
    }
    int first(int st) const { return m_r.stage_first_layer[static_cast<std::size_t>(st)]; }
    int last(int st) const { return stage_last(m_r.stage_first_layer, m_layers, st); }
    /// `values` bf16 values for each prompt of a micro-batch.
    Bytes bytes(int values) const { return Bytes{m_rows} * values * activation_bytes_per_value; }

    std::vector<int> tensor_group(int data, int stage) const {
        std::vector<int> g;
        for (int t = 0; t < m_d.tensor; ++t) g.push_back(gpu_at(m_d, data, t, stage));
        return g;
    }

    void push(StepPhase ph, ExchangeOp op, int layer, std::vector<int> gpus, Bytes bytes, int times, std::string what) {
        Exchange e;
        e.phase = ph;
        e.op = op;
        e.layer = layer;
        e.link = group_link(m_r.setup, gpus);
        e.gpus = std::move(gpus);
        e.bytes = bytes;
        e.times = times;
        e.what = std::move(what);
        m_out.push_back(std::move(e));
    }

    // With a column split each GPU finishes whole neurons, so a layer's outputs only need
    // gathering (an all-gather of rows x width bf16 values); a stage hands its last layer's
    // outputs to the same tensor rank of the next stage.
    void forward() {
        const int m = m_r.micro_batches;
        for (int st = 0; st < m_d.pipeline; ++st) {
            for (int l = first(st); l <= last(st); ++l)
                if (m_d.tensor > 1)
                    for (int dr = 0; dr < m_d.data; ++dr)
                        push(StepPhase::forward, ExchangeOp::all_gather, l, tensor_group(dr, st), bytes(width(l)), m,
                             "outputs of " + name(l));
            if (st + 1 == m_d.pipeline) continue;
            for (int dr = 0; dr < m_d.data; ++dr)
                for (int t = 0; t < m_d.tensor; ++t)
                    push(StepPhase::forward, ExchangeOp::send, last(st),
                         {gpu_at(m_d, dr, t, st), gpu_at(m_d, dr, t, st + 1)}, bytes(width(last(st))), m,
                         "outputs of " + name(last(st)) + " (activations)");
        }
    }

    // Every neuron of layer l adds to the gradient of every input, so each GPU holds partial
    // sums of the gradient for layer l-1's outputs: a reduce-scatter adds them and leaves each
    // GPU the slice for the neurons it owns. Across a stage boundary that slice goes back to
    // the GPU that owns those neurons.
    void backward() {
        const int m = m_r.micro_batches;
        for (int st = m_d.pipeline - 1; st >= 0; --st) {
            for (int l = last(st); l >= std::max(first(st), 1); --l)
                if (m_d.tensor > 1)
                    for (int dr = 0; dr < m_d.data; ++dr)
                        push(StepPhase::backward, ExchangeOp::reduce_scatter, l - 1, tensor_group(dr, st),
                             bytes(width(l - 1)), m, "gradients for the outputs of " + name(l - 1));
            if (st == 0) continue;
            const int boundary = first(st) - 1;
            for (int dr = 0; dr < m_d.data; ++dr)
                for (int t = 0; t < m_d.tensor; ++t)
                    push(StepPhase::backward, ExchangeOp::send, boundary,
                         {gpu_at(m_d, dr, t, st), gpu_at(m_d, dr, t, st - 1)}, bytes(width(boundary) / m_d.tensor), m,
                         "gradients for the outputs of " + name(boundary));
        }
    }

    // Copies that saw different prompts add their gradients (all-reduce), so every copy takes
    // the same averaged step and they stay identical.
    void update() {
        if (m_d.data <= 1) return;
        for (int st = 0; st < m_d.pipeline; ++st)
            for (int t = 0; t < m_d.tensor; ++t) {
                std::vector<int> group;
                for (int dr = 0; dr < m_d.data; ++dr) group.push_back(gpu_at(m_d, dr, t, st));
                const std::int64_t params = m_r.gpus[static_cast<std::size_t>(group.front())].parameters;
                push(StepPhase::update, ExchangeOp::all_reduce, -1, group, params * gradient_bytes_per_parameter, 1,
                     "gradients of its " + format_count(params) + " parameters");
            }
    }

    // FSDP (ZeRO-3; Rajbhandari et al. 2020, sec. 5.3 and 7.2.2): before a layer computes, forward
    // and again backward, its GPUs all-gather its full bf16 weights from their shards (nccl-tests'
    // S: the whole layer's) and free them after; after its backward they reduce-scatter its full
    // gradient, so each keeps the sum of its own shard's: all its Adam step needs. Per step that is
    // 3 collectives of the weights' size where data parallel's all-reduce is 2 (a reduce-scatter
    // and an all-gather): 1.5x the bytes on the wires, for 1/G of the memory.
    void sharded() {
        std::vector<int> all;
        for (int dr = 0; dr < m_d.data; ++dr) all.push_back(gpu_at(m_d, dr, 0, 0));
        auto weights = [&](int l) { return m_r.layers[static_cast<std::size_t>(l)].parameters * weight_bytes_per_parameter; };
        for (int l = 0; l < m_layers; ++l)
            push(StepPhase::forward, ExchangeOp::all_gather, l, all, weights(l), 1, "weights of " + name(l));
        for (int l = m_layers - 1; l >= 0; --l) {
            push(StepPhase::backward, ExchangeOp::all_gather, l, all, weights(l), 1, "weights of " + name(l) + ", again");
            push(StepPhase::backward, ExchangeOp::reduce_scatter, l, all,
                 m_r.layers[static_cast<std::size_t>(l)].parameters * gradient_bytes_per_parameter, 1,
                 "gradients of " + name(l) + "'s weights");
        }
    }

    const SplitResult& m_r;
    const SplitDegrees& m_d;
    int m_rows;  ///< prompts per micro-batch
    int m_layers;
    std::vector<Exchange> m_out;
};

}  // namespace

std::vector<Exchange> split_detail::plan_exchanges(const SplitResult& r) { return ExchangePlanner(r).plan(); }

double wire_bytes(const Exchange& e) {
    const double s = static_cast<double>(e.bytes);
    switch (e.op) {
        case ExchangeOp::send: return s;
        case ExchangeOp::all_reduce: return bytes_on_wires(CollectiveOp::all_reduce, e.gpus.size(), s);
        case ExchangeOp::all_gather: return bytes_on_wires(CollectiveOp::all_gather, e.gpus.size(), s);
        case ExchangeOp::reduce_scatter: return bytes_on_wires(CollectiveOp::reduce_scatter, e.gpus.size(), s);
    }
    return s;
}

}  // namespace m2m::core
