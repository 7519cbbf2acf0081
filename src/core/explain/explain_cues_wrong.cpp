// "Explain it back": the cues for the misconceptions a teacher expects, one phrase list each with
// the guards that keep a correct sentence from being flagged (a table of patterns, in
// Misconception order; explain_parts.hpp says how a pattern is written).
#include "explain_parts.hpp"

namespace m2m::core::explain_detail {

namespace {

// A concession ("even though the CPU has a higher clock, ...") or history ("GPUs were made for
// graphics, but ...") near the words is the student knowing better.
constexpr std::string_view concession = "but|although|though|despite|however|yet|while|whereas|even|unlike|instead";

void add_speed_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    const std::string clock_guard = std::string(concession) + "|lower|slower|less|NEG|irrelevant";
    const std::string graphics_guard = std::string(concession) +
                                       "|originally|once|were|was|began|started|history|historically|anymore|longer|now|"
                                       "today|also";
    k.clock = cue(v, {"higher|faster|greater|better|more|high|bigger|quicker ~2 clock ~1 speed|rate|frequency",
                      "higher|faster|greater|better|more|high|bigger|quicker ~2 clock|frequency|frequencies|ghz|clockspeed",
                      "clock|frequency|clockspeed|ghz ~3 higher|faster|greater|better|more|bigger|quicker"},
                  Guards{.reject_near = clock_guard});
    k.graphics = cue(v,
                     {"@gpu ~5 only|just|mainly|mostly|purely|solely|exclusively|primarily|simply ~3 for|about|use|used|"
                      "good|made|meant|designed|built|do|does ~3 graphic|game|gaming|video|render*|display|image|picture|"
                      "pixel|screen|visual|drawing",
                      "@gpu ~2 are|is for ~2 graphic|game|gaming|video|render*|display|picture|screen|visual|drawing",
                      "only|just|purely|solely|exclusively ~2 for|good|used ~2 graphic|game|gaming|render*|video"},
                     Guards{.reject_near = graphics_guard});
    constexpr std::string_view together = "NEG|together|combined|overall|collectively|total|many|thousand|all|small|"
                                          "simple|tiny|lot|than|";
    k.gpu_faster = cue(v,
                       {"@gpu ~2 core|thread ~4 faster|quicker|stronger|powerful|speedier|better|superior|smarter",
                        "@gpu ~6 better|faster|stronger|quicker|speedier|superior|bigger|powerful|advanced|smarter ~2 "
                        "core|thread"},
                       Guards{.reject_in_span = std::string(together) + "@cpu"});
    k.cpu_slower = cue(v, {"@cpu ~2 core|thread ~4 slower|weaker|worse", "@cpu ~2 core|thread ~4 less ~1 powerful|capable"},
                       Guards{.reject_in_span = std::string(together) + "@gpu"});
    k.more_cores_faster = cue(
        v, {"more ~2 @corew ~4 mean*|make*|so|therefore ~4 each|every|individual|single|one|the|a|it|them ~3 @corew|one ~3 "
            "faster|quicker|stronger|powerful|speedier",
            "more ~2 @corew ~3 mean*|make*|so ~2 faster|quicker|stronger|powerful ~1 @corew",
            "each|every|individual|single ~1 @corew ~4 faster|quicker|stronger|powerful ~4 because|since|as|so ~4 "
            "more|many|thousand",
            "thousand|many|more ~3 @corew ~6 each|every|individual|single ~1 @corew|one ~4 faster|quicker|stronger|"
            "powerful"},
        Guards{.reject_in_span = "NEG"});
    k.faster_everything = cue(
        v, {"@gpu ~6 faster|better|quicker|superior ~4 everything|anything",
            "@gpu ~6 faster|better|quicker|superior ~3 all|every|any ~1 task|thing|job|kind|type|application|app|program|"
            "workload|way|case|purpose|computation|calculation",
            "@gpu ~3 always|simply|just|generally|basically ~2 faster|better|quicker|superior|stronger",
            "@gpu ~4 faster|better|quicker|stronger|superior|bigger computer|cpu|processor|machine|pc|version",
            "@gpu ~4 more ~1 powerful ~1 computer|cpu|processor|machine|pc"},
        Guards{.reject_in_span = "NEG",
               .reject_near = "matrix|matrice|matmul|multipl*|paralle*|dot|neuron|layer|independen*|simultan*|NEG|when|if|"
                              "only|but"});
}

void add_thinking_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    constexpr std::string_view big = "big|large|huge|giant|massive|heavy|long|complex|complicated|hard|difficult|enormous";
    const std::string one = "@gpu ~6 one|single|a|1 ~2 " + std::string(big) +
                            " ~1 calculation|computation|problem|task|operation|equation|sum|job|number|math|maths|function";
    k.big_calculation = cue(
        v, {one,
            "@gpu ~6 complex|complicated|hard|difficult|advanced|heavy|harder ~1 calculation|computation|math|maths|problem|"
            "equation|operation|function",
            "@gpu ~6 big|bigger|large|larger|huge ~1 calculation|computation|equation|number ~3 faster|quicker|better|quickly"},
        Guards{.reject_in_span = "NEG|matrix|matrice|matmul|multipl*|dot|many|lot|thousand|small|simple|tiny|parallel|@cpu",
               .reject_near = "split*|break*|divid*|chop*|into|piece|thousand"});
    k.smarter = cue(v,
                    {"@cpu ~4 smart|smarter|intelligent|cleverer|clever|brain|brainy|wiser|wise ~8 faster|better|quicker|"
                     "win*|beat*|superior",
                     "@cpu ~4 faster|better|quicker|superior ~6 smart|smarter|intelligent|cleverer|clever|brain|brainy|wiser"},
                    Guards{.reject_in_span = "but|while|whereas|however|yet|although|though|@gpu|NEG"});
    constexpr std::string_view kinds = "NEG|few|fewer|less|handful|powerful|complex|capable|advanced|sophisticated|big|"
                                       "bigger|larger|stronger|faster|smart|clever|general|";
    k.cpu_more = cue(v, {"@cpu ~4 more|many|thousand|hundred|lot|BIGNUM ~2 core|thread"},
                     Guards{.reject_in_span = std::string(kinds) + "@gpu"});
    k.gpu_fewer = cue(v, {"@gpu ~4 fewer|less ~2 core|thread"}, Guards{.reject_in_span = "NEG|@cpu"});
    k.more_memory = cue(v, {"@gpu ~4 more|bigger|larger|lot|much ~2 memory|ram|vram|storage",
                            "@gpu ~4 memory|ram|vram ~3 bigger|larger|more",
                            // "GPUs are great at this because they have more memory": the pronoun stands for the GPU
                            "@gpu ~8 they|it ~3 more|bigger|larger|lot|much ~2 memory|ram|vram|storage"},
                        Guards{.reject_in_span = "NEG|faster|bandwidth|speed|fast|quicker|@cpu",
                               .not_before = "bandwidth|speed|throughput|transfer|access|traffic|bus|read|fast|faster|"
                                             "channel|per|rate|clock|latency",
                               .reject_near = "fast|faster|speed|bandwidth|quick|quicker|throughput"});
}

// Wrong ideas about the work itself: outputs that wait for each other, layers all at once.
void add_work_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.outputs_depend = cue(v,
                           {"@thing ~4 depend*|wait*|rely|relies|need*|require* ~5 another|eachother|other|others|"
                            "previous|preceding|earlier|last|neighbour*|neighbor*|before",
                            "@thing ~4 NEG ~4 independen*|separate*|parallel*|simultan*|concurren*|once",
                            "@thing ~4 NEG ~4 same time", "NEG @thing ~3 independen*|separate*"},
                           Guards{.reject_in_span = "=layers|@cpu|core|input|weight|data|memory",
                                  .not_before = "layer|step|stage|gpu|core|input|token",
                                  .reject_near = "@cpu"});
    // Plural "layers" only: "the GPU computes the layer at once" is right.
    k.layers_parallel = cue(v, {"all|different|separate|multiple|several|the ~1 =layers ~8 independen*|parallel|simultan*|concurren*",
                                "all|different|separate|multiple|several|the ~1 =layers ~8 at once",
                                "all|different|separate|multiple|several|the ~1 =layers ~8 same time",
                                "=layers ~3 are|can|run*|be ~3 independen*|parallel|simultan*",
                                "=layers ~3 are|can|run*|be ~3 at once"},
                            "in|within|of|inside|same|each|per|one|a|the|its|their|every",
                            "NEG|neuron|output|node|dot|unit|element|product|core|calculation|computation|inside|within");
    // "Layers don't depend on each other", "every layer at the same time", "the whole network at once".
    k.layers_independent = cue(v, {"=layers ~2 NEG ~3 depend*|wait*|need*|rely|relies|affect* ~4 other|another|eachother",
                                   "every|all ~1 layer ~6 same time", "every|all ~1 layer ~6 simultan*",
                                   "whole|entire|full network|model|net ~4 at once", "whole|entire|full network|model|net ~4 "
                                   "same time|simultan*|in one go"},
                               Guards{.reject_in_span = "neuron|output|node|dot|product|core"});
}

}  // namespace

void add_misconception_cues(Cues& k) {
    add_speed_cues(k);
    add_thinking_cues(k);
    add_work_cues(k);
}

}  // namespace m2m::core::explain_detail
