// Lesson 3's strategies: what each GPU holds and exchanges, the split run against the unsplit
// network, the pipeline bubble, and what moving GPUs to a second node costs.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <set>

#include "m2m/core/engine/text.hpp"
#include "m2m/core/split/split.hpp"
#include "split_setups.hpp"

using namespace m2m::core;

namespace {

SplitSetup setup_for(Strategy s, int gpus, int micro_batches = 4, Placement placement = Placement::one_node,
                     const char* hardware = "h100") {
    return m2m::test::split_setup(s, gpus, micro_batches, placement, SplitTiming::lesson, hardware);
}

const NextWordModel& model() { return trained_next_word_model(); }

std::vector<const Exchange*> of_op(const SplitResult& r, ExchangeOp op) {
    std::vector<const Exchange*> out;
    for (const Exchange& e : r.exchanges)
        if (e.op == op) out.push_back(&e);
    return out;
}

SimTime ps(double seconds) { return picoseconds_from_seconds(seconds); }

}  // namespace

TEST_CASE("each strategy accepts the GPU counts that split its work evenly") {
    CHECK(accepted_gpu_counts(Strategy::data) == std::vector<int>{1, 2, 3, 4, 6, 8});
    CHECK(accepted_gpu_counts(Strategy::tensor) == std::vector<int>{1, 2, 4, 8});
    CHECK(accepted_gpu_counts(Strategy::pipeline) == std::vector<int>{1, 2, 4});
    CHECK(accepted_gpu_counts(Strategy::three_d) == std::vector<int>{8});
    const SplitDegrees d = split_degrees(Strategy::three_d, 8);
    CHECK((d.data == 2 && d.tensor == 2 && d.pipeline == 2));
}

TEST_CASE("a bad setup names the setting that is wrong and what it accepts") {
    auto field = [](SplitSetup s) { return check_split(s, false); };
    SplitSetup s = setup_for(Strategy::data, 5);
    REQUIRE(field(s));
    CHECK(field(s)->field == SplitField::gpus);
    CHECK_THAT(field(s)->message, Catch::Contains("1, 2, 3, 4, 6 or 8"));
    CHECK(field(setup_for(Strategy::data, 0))->field == SplitField::gpus);
    CHECK(field(setup_for(Strategy::data, 9))->field == SplitField::gpus);
    CHECK(field(setup_for(Strategy::tensor, 3))->field == SplitField::gpus);
    CHECK(field(setup_for(Strategy::pipeline, 3))->field == SplitField::gpus);
    CHECK(field(setup_for(Strategy::three_d, 4))->field == SplitField::gpus);
    CHECK(field(setup_for(Strategy::pipeline, 2, 0))->field == SplitField::micro_batches);
    CHECK(field(setup_for(Strategy::data, 2, 0))->field == SplitField::micro_batches);
    const auto m5 = field(setup_for(Strategy::pipeline, 2, 5));
    REQUIRE(m5);
    CHECK(m5->field == SplitField::micro_batches);
    CHECK_THAT(m5->message, Catch::Contains("48 prompts"));
    CHECK(field(setup_for(Strategy::data, 1, 4, Placement::two_nodes))->field == SplitField::placement);
    CHECK_FALSE(field(setup_for(Strategy::three_d, 8, 6)));
    CHECK_FALSE(check_split(setup_for(Strategy::tensor, 8, 4, Placement::two_nodes)));
    CHECK_THROWS_AS(plan_split(model(), setup_for(Strategy::tensor, 3)), std::invalid_argument);
}

TEST_CASE("data parallel: every GPU holds every parameter and the one exchange is an all-reduce of the gradients") {
    for (int g : {2, 3, 4, 8}) {
        INFO("GPUs " << g);
        const SplitResult r = plan_split(model(), setup_for(Strategy::data, g));
        REQUIRE(r.gpus.size() == static_cast<std::size_t>(g));
        for (const GpuHolding& h : r.gpus) {
            CHECK(h.parameters == parameter_count(model()));
            CHECK(h.prompts == 48 / g);
            for (std::size_t l = 0; l < r.layers.size(); ++l) CHECK(h.neurons[l].count == r.layers[l].neurons);
        }
        REQUIRE(r.exchanges.size() == 1);
        const Exchange& e = r.exchanges[0];
        CHECK(e.op == ExchangeOp::all_reduce);
        CHECK(e.phase == StepPhase::update);
        CHECK(e.times == 1);
        CHECK(e.bytes == parameter_count(model()) * 2);  // bf16 gradients
        CHECK(e.gpus.size() == static_cast<std::size_t>(g));
        CHECK(e.link == LinkType::nvlink);
        CHECK_THAT(r.holds_sentence, Catch::StartsWith("Each GPU holds: the whole network"));
        CHECK_THAT(r.exchange_sentence, Catch::StartsWith("GPUs must exchange:") && Catch::Contains("all-reduce"));
    }
}

TEST_CASE("tensor parallel: each GPU holds 1/G of every layer's neurons, all of them together, none twice") {
    for (int g : {2, 4, 8}) {
        INFO("GPUs " << g);
        const SplitResult r = plan_split(model(), setup_for(Strategy::tensor, g));
        std::int64_t params = 0;
        for (std::size_t l = 0; l < r.layers.size(); ++l) {
            std::vector<int> owners(static_cast<std::size_t>(r.layers[l].neurons), 0);
            for (const GpuHolding& h : r.gpus) {
                CHECK(h.neurons[l].count * g == r.layers[l].neurons);
                for (int n = h.neurons[l].first; n < h.neurons[l].end(); ++n) ++owners[static_cast<std::size_t>(n)];
            }
            CHECK(std::all_of(owners.begin(), owners.end(), [](int c) { return c == 1; }));
        }
        for (const GpuHolding& h : r.gpus) {
            params += h.parameters;
            CHECK(h.prompts == 48);
        }
        CHECK(params == parameter_count(model()));
    }
}

TEST_CASE("tensor parallel exchanges after every layer: all-gathers forward, reduce-scatters backward") {
    const SplitResult r = plan_split(model(), setup_for(Strategy::tensor, 2));
    std::set<int> gathered, scattered;
    for (const Exchange* e : of_op(r, ExchangeOp::all_gather)) {
        CHECK(e->phase == StepPhase::forward);
        CHECK(e->bytes == 48 * r.layers[static_cast<std::size_t>(e->layer)].neurons * 2);
        gathered.insert(e->layer);
    }
    for (const Exchange* e : of_op(r, ExchangeOp::reduce_scatter)) {
        CHECK(e->phase == StepPhase::backward);
        scattered.insert(e->layer);
    }
    CHECK(gathered == std::set<int>{0, 1, 2, 3, 4});  // every layer's outputs, the logits included
    CHECK(scattered == std::set<int>{0, 1, 2, 3});    // gradients for every layer's inputs
    CHECK(of_op(r, ExchangeOp::all_reduce).empty());
    CHECK(of_op(r, ExchangeOp::send).empty());
    CHECK_THAT(r.why_sentence, Catch::Contains("all-gather") && Catch::Contains("reduce-scatter"));
}

TEST_CASE("pipeline: each GPU holds whole consecutive layers and passes activations point to point") {
    for (int g : {2, 4}) {
        INFO("GPUs " << g);
        const SplitResult r = plan_split(model(), setup_for(Strategy::pipeline, g, 4));
        int next_layer = 0;
        for (const GpuHolding& h : r.gpus) {
            CHECK(h.first_layer == next_layer);
            for (int l = 0; l < static_cast<int>(r.layers.size()); ++l) {
                const bool held = l >= h.first_layer && l <= h.last_layer;
                CHECK(h.neurons[static_cast<std::size_t>(l)].count == (held ? r.layers[static_cast<std::size_t>(l)].neurons : 0));
            }
            next_layer = h.last_layer + 1;
        }
        CHECK(next_layer == 5);
        for (const Exchange& e : r.exchanges) {
            CHECK(e.op == ExchangeOp::send);
            CHECK(e.times == 4);
            REQUIRE(e.gpus.size() == 2);
            CHECK(std::abs(e.gpus[0] - e.gpus[1]) == 1);  // neighbouring stages only
        }
        CHECK(r.exchanges.size() == static_cast<std::size_t>(2 * (g - 1)));  // forward and back per boundary
        CHECK(r.bubble_fraction == Approx(static_cast<double>(g - 1) / (4 + g - 1)));
    }
}

TEST_CASE("with equal stages the pipeline bubble is (p-1)/(m+p-1), for GPipe and 1F1B alike") {
    for (PipelineSchedule sched : {PipelineSchedule::gpipe, PipelineSchedule::one_f_one_b})
        for (int p : {2, 3, 4})
            for (int m : {1, 2, 4, 8}) {
                INFO("p " << p << " m " << m << " " << schedule_name(sched));
                const SimTime f = 10, b = 20;
                const Timeline t = schedule_pipeline(p, m, sched, f, b);
                CHECK(t.makespan == (m + p - 1) * (f + b));
                const double idle = 1.0 - static_cast<double>(m * (f + b)) / static_cast<double>(t.makespan);
                CHECK(idle == Approx(pipeline_bubble_fraction(p, m)));
                CHECK(pipeline_bubble_fraction(p, m) == Approx(static_cast<double>(p - 1) / (m + p - 1)));
            }
}

TEST_CASE("1F1B keeps fewer micro-batches of activations than GPipe on the first stage") {
    SplitSetup s = setup_for(Strategy::pipeline, 4, 8);
    s.schedule = PipelineSchedule::gpipe;
    const SplitResult gpipe = plan_split(model(), s);
    s.schedule = PipelineSchedule::one_f_one_b;
    const SplitResult one = plan_split(model(), s);
    CHECK(gpipe.gpus[0].rows_in_flight == 48);      // all 8 micro-batches of 6
    CHECK(one.gpus[0].rows_in_flight == 4 * 6);     // at most p = 4 in flight
    CHECK(one.gpus[3].rows_in_flight == 6);         // the last stage finishes each at once
    CHECK(one.gpus[0].bytes.activations < gpipe.gpus[0].bytes.activations);
}

TEST_CASE("3d on 8 GPUs: two copies of a two-stage pipeline of tensor-parallel pairs") {
    const SplitResult r = plan_split(model(), setup_for(Strategy::three_d, 8, 4, Placement::two_nodes));
    REQUIRE(r.gpus.size() == 8);
    std::int64_t copy0 = 0;
    for (const GpuHolding& h : r.gpus) {
        if (h.data_rank == 0) copy0 += h.parameters;
        CHECK(h.prompts == 24);
        CHECK(h.node == (h.stage == 0 ? 0 : 1));  // a stage per node
    }
    CHECK(copy0 == parameter_count(model()));
    bool ag = false, rs = false, sends = false, ar = false;
    for (const Exchange& e : r.exchanges) {
        ag |= e.op == ExchangeOp::all_gather;
        rs |= e.op == ExchangeOp::reduce_scatter;
        sends |= e.op == ExchangeOp::send;
        ar |= e.op == ExchangeOp::all_reduce;
        // Tensor pairs and data pairs stay inside a node; only the pipeline crosses InfiniBand.
        CHECK(e.link == (e.op == ExchangeOp::send ? LinkType::infiniband : LinkType::nvlink));
    }
    CHECK((ag && rs && sends && ar));
    CHECK_THAT(r.exchange_sentence, Catch::Contains("InfiniBand carries the pipeline sends"));
}

TEST_CASE("each GPU holds 16 bytes per parameter plus its saved activations") {
    const SplitResult r = plan_split(model(), setup_for(Strategy::tensor, 2));
    const GpuHolding& h = r.gpus[1];
    CHECK(h.bytes.weights == 2 * h.parameters);
    CHECK(h.bytes.gradients == 2 * h.parameters);
    CHECK(h.bytes.optimizer == 12 * h.parameters);
    // Per prompt: the embedding's 12 own values, then each dense layer's full input and own outputs.
    const std::int64_t per_prompt = 12 + (24 + 24) + 2 * (48 + 24) + (48 + 12);
    CHECK(h.bytes.activations == 48 * per_prompt * 2);
    CHECK(h.bytes.total() == 16 * h.parameters + h.bytes.activations);
    CHECK_THAT(h.sentence, Catch::StartsWith("GPU 1 (node 0) holds embedding values 12-23"));
}

TEST_CASE("the split forward pass gives the unsplit logits for every strategy and GPU count") {
    const std::vector<Example> batch = step_batch();
    std::vector<std::vector<float>> whole;
    for (const Example& ex : batch) whole.push_back(forward(model(), ex.context).logits());
    for (Strategy s : all_strategies)
        for (int g : accepted_gpu_counts(s))
            for (int m : {1, 4}) {
                INFO(strategy_name(s) << " GPUs " << g << " micro-batches " << m);
                const SplitForwardRun run = run_split_forward(model(), setup_for(s, g, m), batch);
                REQUIRE(run.logits.size() == batch.size());
                float worst = 0;
                for (std::size_t i = 0; i < batch.size(); ++i) {
                    for (std::size_t k = 0; k < whole[i].size(); ++k)
                        worst = std::max(worst, std::fabs(run.logits[i][k] - whole[i][k]));
                    const int top = static_cast<int>(std::max_element(whole[i].begin(), whole[i].end()) - whole[i].begin()) + 1;
                    CHECK(run.predicted[i] == top);
                }
                CHECK(worst <= 1e-5f);
            }
}

TEST_CASE("the split training step computes the unsplit gradient for every strategy and GPU count") {
    const std::vector<Example> batch = step_batch();
    float whole_loss = 0;
    const NextWordModel whole = mean_gradient(model(), batch, &whole_loss);
    auto close = [](const std::vector<float>& a, const std::vector<float>& b) {
        float scale = 0, worst = 0;
        for (float v : b) scale = std::max(scale, std::fabs(v));
        for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(a[i] - b[i]));
        return worst <= 1e-4f * std::max(scale, 1e-3f);
    };
    for (Strategy s : all_strategies)
        for (int g : accepted_gpu_counts(s)) {
            INFO(strategy_name(s) << " GPUs " << g);
            const SplitTrainingRun run = run_split_training_step(model(), setup_for(s, g, 4), batch);
            CHECK(run.loss == Approx(whole_loss).epsilon(1e-5));
            CHECK(close(run.gradient.embeddings, whole.embeddings));
            for (std::size_t l = 0; l < whole.dense.size(); ++l) {
                CHECK(close(run.gradient.dense[l].weights, whole.dense[l].weights));
                CHECK(close(run.gradient.dense[l].biases, whole.dense[l].biases));
            }
        }
}

TEST_CASE("what the split run really moved is the plan's exchange list, byte for byte") {
    using Key = std::tuple<int, int, int, std::vector<int>, Bytes>;
    for (Strategy s : all_strategies)
        for (int g : accepted_gpu_counts(s)) {
            INFO(strategy_name(s) << " GPUs " << g);
            const SplitSetup setup = setup_for(s, g, 4);
            const SplitResult plan = plan_split(model(), setup);
            std::multiset<Key> planned, moved;
            for (const Exchange& e : plan.exchanges)
                for (int i = 0; i < e.times; ++i)
                    planned.insert({static_cast<int>(e.phase), static_cast<int>(e.op), e.layer, e.gpus, e.bytes});
            for (const MovedData& d : run_split_training_step(model(), setup, step_batch()).moved)
                moved.insert({static_cast<int>(d.phase), static_cast<int>(d.op), d.layer, d.gpus, d.bytes});
            CHECK(moved == planned);
        }
}

TEST_CASE("the split network predicts the same next word as the whole one") {
    const Prediction whole = predict(model(), "the cat sat on the");
    for (Strategy s : all_strategies) {
        const int g = accepted_gpu_counts(s).back();
        const Prediction split = predict_split(model(), setup_for(s, g), "the cat sat on the");
        CHECK(split.word == "mat");
        REQUIRE(split.logits.size() == whole.logits.size());
        for (std::size_t k = 0; k < whole.logits.size(); ++k) CHECK(split.logits[k] == Approx(whole.logits[k]).margin(1e-5));
    }
}

TEST_CASE("a step's timeline splits every GPU's time into computing, exchanging and idle") {
    for (Strategy s : all_strategies) {
        const int g = s == Strategy::three_d ? 8 : 2;
        INFO(strategy_name(s));
        const SplitResult r = run_split(model(), setup_for(s, g, 4));
        CHECK(r.step.step_time_s > 0);
        CHECK(r.step.compute_s + r.step.communication_s + r.step.idle_s == Approx(r.step.step_time_s));
        REQUIRE(r.step.gpus.size() == static_cast<std::size_t>(g));
        for (const GpuTimeline& row : r.step.gpus) {
            CHECK(row.compute_s + row.communication_s + row.idle_s == Approx(r.step.step_time_s));
            bool fwd = false, bwd = false, upd = false, comm = false;
            for (const StepTask& t : row.tasks) {
                CHECK(t.end >= t.start);
                CHECK(t.end <= r.step.step_time);
                fwd |= t.kind == StepTaskKind::forward;
                bwd |= t.kind == StepTaskKind::backward;
                upd |= t.kind == StepTaskKind::update;
                comm |= t.kind == StepTaskKind::communication;
            }
            CHECK((fwd && bwd && upd && comm));
        }
        for (const Exchange& e : r.exchanges) CHECK(e.seconds > 0);
        CHECK_THAT(r.time_sentence, Catch::StartsWith("One training step on NVIDIA H100"));
    }
}

TEST_CASE("one GPU exchanges nothing and is never idle") {
    const SplitResult r = run_split(model(), setup_for(Strategy::data, 1));
    CHECK(r.exchanges.empty());
    CHECK(r.step.communication_s == 0);
    CHECK(r.step.idle_s == Approx(0).margin(1e-15));
    CHECK_THAT(r.exchange_sentence, Catch::Contains("nothing"));
    // One GPU is "the GPU", not "each GPU" or "GPUs".
    CHECK_THAT(r.holds_sentence, Catch::StartsWith("The GPU holds:"));
    const std::string step = r.time_sentence.substr(0, r.time_sentence.find(" Lesson timing"));
    CHECK_THAT(step, Catch::StartsWith("One training step on one NVIDIA H100 SXM 80GB GPU takes") &&
                         Catch::Contains("; the GPU spends") && !Catch::Contains("each GPU"));
}

TEST_CASE("a pipeline step idles about as much as the bubble formula says") {
    const SplitResult r = run_split(model(), setup_for(Strategy::pipeline, 2, 4));
    CHECK(r.bubble_fraction == Approx(0.2));
    // Stages are nearly equal here; the sends between them add a little waiting on top.
    CHECK(r.step.idle_fraction + r.step.communication_s / r.step.step_time_s >= 0.2 - 0.02);
    CHECK(r.step.idle_fraction <= 0.2 + 0.1);
}

TEST_CASE("tensor parallel across two nodes is slower by exactly what the link model says") {
    for (int g : {2, 4, 8}) {
        INFO("GPUs " << g);
        const SplitResult one = run_split(model(), setup_for(Strategy::tensor, g, 1, Placement::one_node));
        const SplitResult two = run_split(model(), setup_for(Strategy::tensor, g, 1, Placement::two_nodes));
        REQUIRE(one.exchanges.size() == two.exchanges.size());
        SimTime extra = 0;
        for (std::size_t i = 0; i < one.exchanges.size(); ++i) {
            CHECK(one.exchanges[i].link == LinkType::nvlink);
            CHECK(two.exchanges[i].link == LinkType::infiniband);
            CHECK(two.exchanges[i].seconds > one.exchanges[i].seconds);
            extra += one.exchanges[i].times * (ps(two.exchanges[i].seconds) - ps(one.exchanges[i].seconds));
        }
        // Every tensor-parallel exchange sits on the step's critical path, so the step grows by
        // the sum of the collectives' extra time, to the picosecond.
        CHECK(two.step.step_time - one.step.step_time == extra);
        CHECK(two.step.compute_s == Approx(one.step.compute_s));
        CHECK_THAT(two.exchange_sentence, Catch::Contains("InfiniBand"));
    }
}

TEST_CASE("data parallel across two nodes pays the slower all-reduce once") {
    const SplitResult one = run_split(model(), setup_for(Strategy::data, 2));
    const SplitResult two = run_split(model(), setup_for(Strategy::data, 2, 4, Placement::two_nodes));
    REQUIRE(two.exchanges.size() == 1);
    CHECK(two.exchanges[0].link == LinkType::infiniband);
    CHECK(two.step.step_time - one.step.step_time == ps(two.exchanges[0].seconds) - ps(one.exchanges[0].seconds));
}

TEST_CASE("bytes exchanged say what crosses the wires, not only the tensor: a ring all-reduce sends 2(n-1)/n of it from each GPU") {
    const SplitResult r = run_split(model(), setup_for(Strategy::data, 4));
    const auto ar = of_op(r, ExchangeOp::all_reduce);
    REQUIRE(ar.size() == 1);
    const double s = static_cast<double>(ar[0]->bytes);
    CHECK(wire_bytes(*ar[0]) == Approx(4 * 2.0 * 3 / 4 * s));  // four GPUs, each 1.5 S
    CHECK(r.wire_bytes == Approx(wire_bytes(*ar[0]) * ar[0]->times));
    CHECK_THAT(r.exchange_sentence, Catch::Contains(format_bytes(r.wire_bytes) + " on the wires"));
    const SplitResult p = run_split(model(), setup_for(Strategy::pipeline, 2));
    for (const Exchange* e : of_op(p, ExchangeOp::send)) CHECK(wire_bytes(*e) == static_cast<double>(e->bytes));
}

TEST_CASE("the words a pending guess may read name what is exchanged, not how many bytes or how long") {
    for (Strategy s : {Strategy::data, Strategy::tensor, Strategy::pipeline}) {
        const SplitResult r = run_split(model(), setup_for(s, 2));
        INFO(strategy_name(s) << ": " << r.exchange_sentence_before_run << " | " << r.time_sentence_before_run);
        CHECK_THAT(r.exchange_sentence_before_run, Catch::StartsWith("GPUs must exchange:"));
        CHECK_THAT(r.exchange_sentence_before_run, !Catch::Contains(format_bytes(static_cast<double>(r.exchanged_bytes))));
        CHECK_THAT(r.exchange_sentence_before_run, !Catch::Contains(format_bytes(r.wire_bytes)));
        CHECK_THAT(r.exchange_sentence_before_run, Catch::Contains("once the step has run"));
        CHECK_THAT(r.time_sentence_before_run, Catch::Contains(format_seconds(r.step.step_time_s)));
        CHECK_THAT(r.time_sentence_before_run, !Catch::Contains(format_seconds(r.step.communication_s)));
        // After the run, the full sentences carry both figures.
        CHECK_THAT(r.exchange_sentence, Catch::Contains(format_bytes(r.wire_bytes)));
        CHECK_THAT(r.time_sentence, Catch::Contains(format_seconds(r.step.communication_s)));
    }
}

TEST_CASE("a ring across two nodes is said to cross NVLink inside them and InfiniBand between them") {
    const SplitResult r = run_split(model(), setup_for(Strategy::data, 8, 1, Placement::two_nodes));
    CHECK_THAT(r.exchange_sentence, Catch::Contains("on the wires over NVLink and InfiniBand"));
    CHECK_THAT(r.exchange_sentence, Catch::EndsWith("InfiniBand carries the gradient all-reduces where they cross from one node to the other."));
    const SplitResult fsdp = run_split(model(), setup_for(Strategy::fsdp, 8, 1, Placement::two_nodes));
    CHECK_THAT(fsdp.exchange_sentence, Catch::Contains("FSDP gathers and reduce-scatters") && !Catch::Contains("FSDP's collectives"));
}
