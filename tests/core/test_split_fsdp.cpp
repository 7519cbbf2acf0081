// Lesson 3's FSDP (ZeRO-3): each GPU keeps 1/G of every layer, gathers a layer's weights forward
// and again backward, reduce-scatters the gradients; what it holds, moves and costs against data parallel.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "m2m/core/split/split.hpp"
#include "m2m/core/split/split_card.hpp"
#include "m2m/core/split/split_guess.hpp"
#include "split_setups.hpp"

using namespace m2m::core;

namespace {

SplitSetup setup_for(Strategy s, int gpus, Placement placement = Placement::one_node) {
    return m2m::test::split_setup(s, gpus, 4, placement);
}

const NextWordModel& model() { return trained_next_word_model(); }

}  // namespace

TEST_CASE("FSDP takes the GPU counts that split both the prompts and every layer evenly, and the name fsdp") {
    CHECK(accepted_gpu_counts(Strategy::fsdp) == std::vector<int>{1, 2, 4, 8});
    CHECK(parse_strategy("fsdp") == Strategy::fsdp);
    CHECK(strategy_name(Strategy::fsdp) == "fsdp");
    const auto problem = check_split(setup_for(Strategy::fsdp, 3), false);
    REQUIRE(problem);
    CHECK(problem->field == SplitField::gpus);
    CHECK_THAT(problem->message, Catch::Contains("FSDP") && Catch::Contains("1, 2, 4 or 8"));
}

TEST_CASE("FSDP: each GPU holds 1/G of every layer's parameters, all of them together, none twice") {
    for (int g : {2, 4, 8}) {
        const SplitResult r = plan_split(model(), setup_for(Strategy::fsdp, g));
        const std::int64_t total = parameter_count(model());
        INFO(g << " GPUs");
        REQUIRE(static_cast<int>(r.gpus.size()) == g);
        for (std::size_t l = 0; l < r.layers.size(); ++l) {
            std::set<int> seen;
            std::int64_t params = 0;
            for (const GpuHolding& h : r.gpus) {
                CHECK(h.layer_parameters[l] * g == r.layers[l].parameters);  // exactly 1/G of the layer
                params += h.layer_parameters[l];
                for (int i = h.neurons[l].first; i < h.neurons[l].end(); ++i) CHECK(seen.insert(i).second);
            }
            CHECK(params == r.layers[l].parameters);
            CHECK(static_cast<int>(seen.size()) == r.layers[l].neurons);
        }
        std::int64_t widest = 0;
        for (const LayerInfo& l : r.layers) widest = std::max(widest, l.parameters);
        for (const GpuHolding& h : r.gpus) {
            CHECK(h.parameters * g == total);
            CHECK(h.prompts == step_prompts / g);  // a data-parallel share of the prompts
            // 16 B per parameter of its shard, plus one borrowed layer's weights and gradient (2 + 2 B)
            CHECK(h.bytes.weights + h.bytes.gradients + h.bytes.optimizer == h.parameters * 16);
            CHECK(h.bytes.borrowed == widest * 4);
        }
    }
}

TEST_CASE("FSDP exchanges 1.5 times data parallel's bytes on the wires: two all-gathers and a reduce-scatter against one all-reduce") {
    // Ring collectives among n GPUs of a tensor of S bytes put on the wires, all GPUs together:
    // all-gather (n-1)S, reduce-scatter (n-1)S, all-reduce 2(n-1)S (a reduce-scatter then an
    // all-gather). Data parallel all-reduces the P x 2 B gradient once: 2(n-1) x 2P. FSDP gathers
    // every layer's 2 B weights twice and reduce-scatters its 2 B gradient once: 3(n-1) x 2P, the
    // 1.5x of the ZeRO paper (Rajbhandari et al. 2020, sec. 7.2.2: 3 psi against 2 psi). Counted
    // by each collective's tensor (nccl-tests' S, the whole layer for all three), FSDP moves three
    // tensors of the weights' size where data parallel moves one: 3x.
    const std::int64_t P = parameter_count(model());
    for (int g : {2, 4, 8})
        for (Placement p : {Placement::one_node, Placement::two_nodes}) {
            const SplitResult fsdp = plan_split(model(), setup_for(Strategy::fsdp, g, p));
            const SplitResult data = plan_split(model(), setup_for(Strategy::data, g, p));
            INFO(g << " GPUs, " << placement_name(p));
            CHECK(data.wire_bytes == Approx(2.0 * (g - 1) * 2 * P));
            CHECK(fsdp.wire_bytes == Approx(3.0 * (g - 1) * 2 * P));
            CHECK(fsdp.wire_bytes / data.wire_bytes == Approx(1.5));
            CHECK(data.exchanged_bytes == 2 * P);
            CHECK(fsdp.exchanged_bytes == 3 * 2 * P);
            const std::size_t layers = fsdp.layers.size();
            int gathers = 0, scatters = 0;
            for (const Exchange& e : fsdp.exchanges) {
                CHECK(static_cast<int>(e.gpus.size()) == g);
                gathers += e.op == ExchangeOp::all_gather;
                scatters += e.op == ExchangeOp::reduce_scatter;
                CHECK((e.op == ExchangeOp::all_gather || e.op == ExchangeOp::reduce_scatter));
            }
            CHECK(gathers == static_cast<int>(2 * layers));
            CHECK(scatters == static_cast<int>(layers));
        }
    CHECK(plan_split(model(), setup_for(Strategy::fsdp, 1)).exchanges.empty());
}

TEST_CASE("lesson timing: FSDP computes what data parallel does but waits on its gathers, so its step is longer") {
    for (int g : {2, 4, 8}) {
        const SplitResult fsdp = run_split(model(), setup_for(Strategy::fsdp, g));
        const SplitResult data = run_split(model(), setup_for(Strategy::data, g));
        INFO(g << " GPUs: FSDP " << fsdp.step.step_time_s << " s, data " << data.step.step_time_s << " s");
        // The same prompts and whole layers per GPU; only the Adam step, on 1/G of the parameters, is
        // shorter: at lesson timing it moves 28 B a parameter, one operation per 2 B value.
        const double adam_s_per_parameter =
            static_cast<double>(adam_step_bytes_per_parameter) / activation_bytes_per_value / lesson_ops_per_s;
        const double saved = adam_s_per_parameter * static_cast<double>(parameter_count(model())) * (1.0 - 1.0 / g);
        CHECK(data.step.compute_s - fsdp.step.compute_s == Approx(saved).epsilon(1e-6));
        CHECK(fsdp.step.step_time_s > data.step.step_time_s);
        CHECK(fsdp.step.communication_s > data.step.communication_s);
    }
}

TEST_CASE("FSDP's step gathers each layer before it computes, forward and backward, and updates after every reduce-scatter") {
    const SplitResult r = run_split(model(), setup_for(Strategy::fsdp, 4));
    for (const GpuTimeline& row : r.step.gpus) {
        SimTime last_scatter = 0, update = 0;
        for (const StepTask& k : row.tasks) {
            if (k.kind == StepTaskKind::update) update = k.start;
            if (k.kind == StepTaskKind::communication &&
                r.exchanges[static_cast<std::size_t>(k.exchange)].op == ExchangeOp::reduce_scatter)
                last_scatter = std::max(last_scatter, k.end);
            if (k.kind != StepTaskKind::forward && k.kind != StepTaskKind::backward) continue;
            // The gather of this layer for this pass ended before the kernel began.
            const StepPhase phase = k.kind == StepTaskKind::forward ? StepPhase::forward : StepPhase::backward;
            bool gathered = false;
            for (const StepTask& c : row.tasks) {
                if (c.kind != StepTaskKind::communication) continue;
                const Exchange& e = r.exchanges[static_cast<std::size_t>(c.exchange)];
                gathered |= e.op == ExchangeOp::all_gather && e.phase == phase && e.layer == k.layer && c.end <= k.start;
            }
            CHECK(gathered);
        }
        CHECK(update >= last_scatter);
    }
}

TEST_CASE("FSDP's words say what each GPU keeps, what is gathered and why, before and after the run") {
    const SplitResult r = run_split(model(), setup_for(Strategy::fsdp, 4));
    CHECK_THAT(r.holds_sentence, Catch::Contains("a 1/4 shard of every layer") && Catch::Contains("none keeps it"));
    CHECK_THAT(r.exchange_sentence, Catch::Contains("10 all-gathers") && Catch::Contains("5 reduce-scatters") &&
                                        Catch::Contains("on the wires"));
    // Before the run no sizes and no counts: the split with the most exchanges had the most bytes.
    CHECK_THAT(r.exchange_sentence_before_run, Catch::Contains("all-gathers") && !Catch::Contains("10 ") && !Catch::Contains(" KB") &&
                                                   Catch::Contains("How many there are and how many bytes they move"));
    // Both counts, each said for what it is: the tensors, and the bytes on the wires the ranking counts.
    CHECK_THAT(r.why_sentence, Catch::Contains("three times the tensors exchanged") &&
                                   Catch::Contains("on the wires, where the time goes, FSDP moves 1.5 times the bytes"));
    // Before the run, with a guess of which split puts the most on the wires pending: no comparison at all.
    CHECK_THAT(r.why_sentence_before_run, Catch::Contains("all-gather") && !Catch::Contains("times") &&
                                              !Catch::Contains("data parallel"));
    CHECK_THAT(r.gpus[1].sentence, Catch::Contains("borrowed layer"));
    CHECK_THAT(r.time_sentence_before_run, !Catch::Contains("waiting on exchanges"));
}

TEST_CASE("FSDP is among the strategies compared by bytes, and the guess of it is revealed") {
    const std::vector<StrategyBytes> bytes = exchanged_by_strategy(model(), setup_for(Strategy::data, 4));
    const auto it = std::find_if(bytes.begin(), bytes.end(), [](const StrategyBytes& b) { return b.strategy == Strategy::fsdp; });
    REQUIRE(it != bytes.end());
    CHECK(it->exchanged == plan_split(model(), setup_for(Strategy::fsdp, 4)).exchanged_bytes);
    const SplitReveal reveal = reveal_split(Strategy::fsdp, bytes, 4);
    CHECK_THAT(reveal.lines[1], Catch::Contains("fully sharded data parallel (FSDP)"));
}

TEST_CASE("an FSDP card shows its shard, and the whole layer it borrows while it gathers and computes it") {
    const SplitResult r = run_split(model(), setup_for(Strategy::fsdp, 2));
    const SplitCards cards(r);
    bool saw_arriving = false, saw_in_use = false;
    for (const StepTask& t : r.step.gpus[1].tasks) {
        const GpuCardMoment m = cards.moment(r, 1, (t.start_s() + t.end_s()) / 2);
        if (t.kind == StepTaskKind::communication && !m.kernel &&
            r.exchanges[static_cast<std::size_t>(t.exchange)].op == ExchangeOp::all_gather) {
            CHECK(m.borrowed_layer == r.exchanges[static_cast<std::size_t>(t.exchange)].layer);
            CHECK(m.borrowed_arriving);
            saw_arriving = true;
        }
        if (t.kind == StepTaskKind::forward || t.kind == StepTaskKind::backward) {
            CHECK(m.borrowed_layer == t.layer);
            CHECK_FALSE(m.borrowed_arriving);
            saw_in_use = true;
        }
        if (t.kind == StepTaskKind::update) CHECK(m.borrowed_layer == -1);
    }
    CHECK(saw_arriving);
    CHECK(saw_in_use);
    CHECK((*cards.moment(r, 1, 0).held)[2].count == r.layers[2].neurons / 2);  // its shard only
    CHECK(cards.words(1).places == std::vector<std::string>{"shard 2", "S2"});
}
