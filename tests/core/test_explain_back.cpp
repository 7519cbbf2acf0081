// "Explain it back": what the checker guarantees beyond the answer tables: the answers,
// negation and contrast, keyword lists, near misses, evidence, summaries, hints and notes, and a
// bounded, linear read of a 100 KB paste.
#include <catch2/catch.hpp>

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "m2m/core/explain/explain_back.hpp"

using namespace m2m::core;

namespace {

const std::string good_typed =
    "A matrix multiply is many dot products. Each neuron is independent of the others in its layer. A GPU has "
    "thousands of small cores that run them at once; a CPU has a few big cores that go one after another. Only the "
    "layers depend on each other. Memory bandwidth matters too. A batch of inputs reuses each weight. ";

const IdeaCheck& idea(const ExplainFeedback& f, ExplainIdea i) { return f.ideas.at(static_cast<std::size_t>(i)); }

}  // namespace

TEST_CASE("the issue's five answers: misconceptions named, a keyword list, a denial and more cores earn nothing") {
    const auto clock = grade_answer("CPU is better because it has a higher clock speed... GPUs are only for graphics");
    CHECK(misconception_ids(clock) == "clock_speed,graphics_only");
    CHECK(clock.misconceptions.at(0).evidence == "higher clock speed");
    CHECK(clock.misconceptions.at(1).evidence == "GPUs are only for graphics");
    CHECK(misconception_ids(grade_answer("GPUs are just faster computers with better cores")) ==
          "gpu_cores_faster,faster_at_everything");
    const auto list = grade_answer("dot products independent thousands cores parallel few cores sequential layers memory "
                                   "bandwidth");
    CHECK(list.kind == AnswerKind::keyword_list);
    CHECK(list.found_count() == 0);
    const auto denied = grade_answer("The dot products are NOT independent.");
    CHECK_FALSE(denied.found(ExplainIdea::independent_outputs));
    CHECK(denied.has(Misconception::outputs_depend));
    const auto more = grade_answer("GPUs have more cores.");
    CHECK_FALSE(more.found(ExplainIdea::gpu_many_cores));
    CHECK(idea(more, ExplainIdea::gpu_many_cores).near_miss == "GPUs have more cores");
}

TEST_CASE("a negation denies its own clause only; a contrast changes who a phrase is about") {
    CHECK(grade_answer("The neurons are not independent.").found_count() == 0);
    CHECK(grade_answer("The neurons aren't really independent.").found_count() == 0);
    // A comma, "but", "and" or "because" ends the negation's reach.
    CHECK(found_ids(grade_answer("No, each neuron is independent of the others.")) == "independent_outputs");
    CHECK(found_ids(grade_answer("The CPU is not parallel, but the GPU runs all the dot products at once.")) ==
          "dot_products,gpu_many_cores,cpu_few_cores");
    CHECK(found_ids(grade_answer("It isn't hard because the neurons are independent of each other.")) ==
          "independent_outputs");
    // "The CPU doesn't ..." is the CPU's side said with a negation; the GPU denied is no GPU idea.
    CHECK(found_ids(grade_answer("The CPU can't do all the neurons at the same time.")) == "cpu_few_cores");
    CHECK(found_ids(grade_answer("The GPU doesn't do them one by one.")) == "gpu_many_cores");
    CHECK(grade_answer("The GPU does not have thousands of cores.").found_count() == 0);
    // "Unlike the CPU" and "than a CPU" name the machine a phrase is not about.
    CHECK(found_ids(grade_answer("Unlike a CPU, a GPU has thousands of cores.")) == "gpu_many_cores");
    CHECK(found_ids(grade_answer("A GPU has far more cores than a CPU, so it runs a layer's neurons at once.")) ==
          "gpu_many_cores");
    // "Is not dot products" denies what a matrix multiply is; "can't do many dot products" does not.
    CHECK_FALSE(grade_answer("A matrix multiply is not many dot products.").found(ExplainIdea::dot_products));
    CHECK(grade_answer("A CPU can't do many dot products at once.").found(ExplainIdea::dot_products));
}

TEST_CASE("a keyword list earns little, and the summary tells the student so") {
    const auto none = grade_answer("dot products, independent, thousands of cores, parallel, layers");
    CHECK(none.kind == AnswerKind::keyword_list);
    CHECK(none.summary ==
          "This reads like a list of keywords, and a list earns little: an idea counts only when a sentence says how "
          "its words connect, such as what is independent of what, or which machine has which cores. Try joining the "
          "words into a few sentences.");
    const auto some = grade_answer("dot products, independent, GPU: thousands of small cores, layers, bandwidth");
    CHECK(some.kind == AnswerKind::keyword_list);
    CHECK(found_ids(some) == "gpu_many_cores");
    CHECK_THAT(some.summary, Catch::EndsWith("The parts written as sentences show one of the seven ideas."));
    // Short notes with their connecting words are not a list.
    CHECK(grade_answer("GPU: thousands of small cores. CPU: a few big cores.").kind == AnswerKind::answer);
}

TEST_CASE("an idea named without its relation gets a hint that says what to add") {
    const auto f = grade_answer("The dot products are independent. GPUs have more cores. We use batches.");
    CHECK(found_ids(f) == "independent_outputs");
    CHECK(idea(f, ExplainIdea::dot_products).near_miss == "dot products");
    CHECK(idea(f, ExplainIdea::gpu_many_cores).near_miss == "GPUs have more cores");
    CHECK(idea(f, ExplainIdea::batch_reuse).near_miss == "batches");
    CHECK(idea(f, ExplainIdea::cpu_few_cores).near_miss.empty());
    CHECK(f.summary == "A good start: one of the seven ideas. Some words are there without what they connect to; the "
                       "hints say what to add.");
    CHECK(explain_idea_line(idea(f, ExplainIdea::gpu_many_cores)) ==
          "You wrote \u201cGPUs have more cores\u201d. Say how many cores a GPU has (thousands) and what they do with "
          "the dot products: take them all at the same moment.");
    CHECK(explain_idea_line(idea(f, ExplainIdea::independent_outputs)) == "you wrote \u201cindependent\u201d");
    CHECK(explain_idea_line(idea(f, ExplainIdea::cpu_few_cores)) ==
          "Hint: Describe the CPU's side: only a handful of strong cores, so the dot products queue up and take turns.");
}

TEST_CASE("the evidence quotes the student's own words, the machine included when it is close") {
    const auto f = grade_answer(
        "Unlike a CPU, a GPU has 16,896 cores, whereas the CPU has only 8 cores; the CPU goes through the neurons one "
        "after the other.");
    CHECK(f.ideas[2].evidence == "GPU has 16,896 cores");
    CHECK(f.ideas[3].evidence == "CPU has only 8 cores");
    CHECK(grade_answer("Layers have to wait for eachother.").ideas[4].evidence == "Layers have to wait for eachother");
    CHECK(grade_answer("GPU cores are faster than CPU cores.").misconceptions.at(0).evidence == "GPU cores are faster");
    CHECK(grade_answer("A GPU \xf0\x9f\x9a\x80 has thousands of cores.").ideas[2].evidence ==
          "GPU \xf0\x9f\x9a\x80 has thousands of cores");
    CHECK(grade_answer("GPUs have more cores than CPUs so they can do more at once.").ideas[2].evidence ==
          "they can do more at once");
    CHECK(grade_answer("Each weight read from memory serves all 256 inputs of the batch.").ideas[6].evidence ==
          "weight read from memory serves all 256 inputs");
}

TEST_CASE("the summary says how many ideas are there, in words") {
    CHECK(grade_answer(explain_model_answer()).summary ==
          "All seven ideas are there. Compare your wording with the model answer if you like.");
    CHECK(grade_answer("A matrix multiply is many dot products.").summary ==
          "A good start: one of the seven ideas. The hints below point to what is missing.");
    CHECK(grade_answer("Many independent dot products; the GPU runs them at once, a CPU one at a time.").summary ==
          "A strong answer: four of the seven ideas. The hints below point to what is missing.");
    CHECK(grade_answer("Because GPUs are faster.").summary ==
          "None of the seven ideas showed up yet. Start with what a matrix multiply is made of, then say what each "
          "machine does with it.");
    CHECK(grade_answer(" ").summary == "Nothing to check yet: write a few sentences in the box, then press Submit.");
    CHECK(grade_answer("\xf0\x9f\xa4\xb7").summary ==
          "There are no words here to check yet: explain it in a few sentences, then press Submit.");
    CHECK(grade_answer("\xe7\x9f\xa9\xe9\x98\xb5\xe4\xb9\x98\xe6\xb3\x95\xe6\x98\xaf\xe5\xbe\x88\xe5\xa4\x9a").summary ==
          "This answer seems to be written in another language. The checker only reads English for now, so it may "
          "have missed ideas you did write.");
}

TEST_CASE("every idea has a title, a hint and a relation hint, every misconception its own kind note") {
    std::set<std::string_view> ids, titles, notes;
    for (std::size_t i = 0; i < explain_idea_count; ++i) {
        const auto idea = static_cast<ExplainIdea>(i);
        ids.insert(explain_idea_id(idea));
        titles.insert(explain_idea_title(idea));
        CHECK(explain_idea_hint(idea).size() > 40);
        CHECK(explain_idea_relation_hint(idea).size() > 40);
    }
    CHECK(ids.size() == explain_idea_count);
    CHECK(titles.size() == explain_idea_count);
    CHECK(explain_idea_id(ExplainIdea::batch_reuse) == "batch_reuse");
    CHECK(explain_idea_title(ExplainIdea::batch_reuse) ==
          "A batch reuses each weight: a vector product becomes a matrix product");
    CHECK(explain_idea_hint(ExplainIdea::data_movement) ==
          "Cores only help if the weights reach them in time: mention memory bandwidth, or the links that carry "
          "numbers between chips.");
    ids.clear();
    for (std::size_t i = 0; i < misconception_count; ++i) {
        const auto m = static_cast<Misconception>(i);
        ids.insert(misconception_id(m));
        notes.insert(misconception_note(m));
        CHECK(misconception_note(m).size() > 80);
    }
    CHECK(ids.size() == misconception_count);
    CHECK(notes.size() == misconception_count);
    CHECK(explain_question() == "Why is a matrix multiply the perfect job for a GPU, and a bad fit for a CPU?");
}

TEST_CASE("the model answer shows every idea, batch reuse included, and no misconception") {
    const auto f = grade_answer(explain_model_answer());
    CHECK(f.found_count() == explain_idea_count);
    CHECK(f.misconceptions.empty());
    CHECK(idea(f, ExplainIdea::batch_reuse).evidence == "batch of 256 inputs turns the layer's matrix-vector product");
}

TEST_CASE("an answer pasted from the model answer is told to use its own words") {
    const auto pasted = grade_answer("Here is my answer. " + std::string(explain_model_answer()));
    CHECK(pasted.found_count() == explain_idea_count);
    CHECK(pasted.notes == std::vector<std::string>{"Much of this is the model answer, word for word. The checklist "
                                                   "counts it, but the point is to say it in your own words: try again "
                                                   "without looking."});
    CHECK(grade_answer(good_typed).notes.empty());  // the same ideas in other words
}

TEST_CASE("a 100 KB answer is read up to the cap, quickly, and the student is told") {
    const std::string filler(100 * 1024 - good_typed.size(), 'x');
    const auto t0 = std::chrono::steady_clock::now();
    const auto f = grade_answer(good_typed + filler);
    const auto soup = [] {  // the worst case for the phrase matcher: one endless sentence of its own words
        std::string s;
        const char* words[] = {"not ", "layer ", "depend ", "gpu ", "cpu ", "many ", "few ", "cores ", "at ", "once ",
                               "than ", "it ", "one ", "after ", "another ", "dot ", "products ", "memory "};
        for (std::size_t i = 0; s.size() < 100 * 1024; ++i) s += words[(i * 7 + i / 3) % 18];
        return grade_answer(s);
    }();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    CHECK(f.found_count() == explain_idea_count);
    CHECK(f.truncated);
    CHECK(f.notes == std::vector<std::string>{"Only the first 20,000 characters were read; a good answer fits in one paragraph."});
    CHECK(soup.truncated);
    CHECK(soup.words < 20000 / 2);
    CHECK(ms < 2000);  // generous for a loaded shared machine; ~10 ms each when idle

    const auto repeated = [] {
        std::string s;
        while (s.size() < 100 * 1024) s += good_typed;
        return grade_answer(s);
    }();
    CHECK(repeated.found_count() == explain_idea_count);
    CHECK(repeated.truncated);

    const auto no_spaces = grade_answer(std::string(100 * 1024, 'a'));
    CHECK(no_spaces.kind == AnswerKind::answer);
    CHECK(no_spaces.found_count() == 0);
    CHECK(no_spaces.truncated);
    CHECK(no_spaces.words == 1);

    // The cap counts characters, not bytes, and never cuts one in half.
    std::string greek;
    for (int i = 0; i < 30000; ++i) greek += "\xcf\x83";
    const auto g = grade_answer(greek);
    CHECK(g.kind == AnswerKind::not_english);
    CHECK(g.truncated);
}

TEST_CASE("an answer exactly at the cap is read whole") {
    std::string s = "many dot products ";
    s += std::string(explain_max_answer_chars - s.size(), ' ');
    const auto f = grade_answer(s);
    CHECK_FALSE(f.truncated);
    CHECK(f.found(ExplainIdea::dot_products));
    CHECK(grade_answer(s + "x").truncated);
}

