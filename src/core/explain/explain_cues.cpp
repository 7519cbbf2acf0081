// "Explain it back": the checker's cues for the ideas, one phrase list per thing a student may write
// (a table of patterns, grouped by idea; explain_parts.hpp says how a pattern is written).
#include "explain_parts.hpp"

namespace m2m::core::explain_detail {

namespace {

// The words that name each machine, and "core" itself.
void add_machine_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.gpu = cue(v, {"@gpu", "graphic card|processor|processing|chip|unit|board", "video card", "tensor core"});
    k.cpu = cue(v, {"cpu", "central processing unit", "central processor", "processor", "xeon|epyc|ryzen"});
    k.core_word = cue(v, {"@corew", "=ones"});
    // A machine is named even where it is denied: "the CPU, not the GPU, ..." still says who.
    k.gpu.negatable = k.cpu.negatable = k.core_word.negatable = false;
}

// The GPU's side. A count that says "thousands" is enough alone; "more" or "many" cores, or small
// ones, say only half of it and need "at once" beside them.
void add_gpu_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.many_cores = cue(v, {"thousand|hundred|million|countless|myriad|army|multitude|swarm ~3 @corew",
                           "BIGNUM ~2 @corew",
                           "huge|massive|enormous|vast|large|giant|great ~1 number|amount|count|team|army|crowd|array|"
                           "swarm ~3 @corew",
                           "massively|highly|extremely|hugely|very|super parallel", "massive|huge|enormous ~1 parallelism",
                           "thousand|hundred ~2 on|onto|into ~2 chip|die|card|board"});
    k.more_cores = cue(v, {"many|lot|ton|load|plenty|multiple|several|bunch|more|numerous ~3 @corew",
                           "small|tiny|simple|little|weak|light|dumb|lightweight ~2 @corew", "cuda core"});
    k.parallel = cue(v, {"parallel", "parallel*", "paralleli*", "at once", "same time", "simultan*", "concurren*",
                         "all together", "in one go", "side by side", "in one step", "all in one",
                         "many|lot|thousand|hundred|all|BIGNUM ~2 at ~1 a time"});
    k.many_word = cue(v, {"thousand|hundred|million|countless|BIGNUM"});
    k.more_word = cue(v, {"many|lot|ton|load|plenty|more|multiple|several|numerous"});
}

// The CPU's side: a few big cores, or one thing after another; "fewer cores" alone says half.
void add_cpu_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.few_cores = cue(v, {"few|handful|couple|only ~3 @corew", "small|limited|low ~1 number|count|amount ~3 @corew",
                          "SMALLNUM ~2 @corew",
                          "big|large|powerful|complex|fast|strong|beefy|fat|heavy|smart|clever|sophisticated|general "
                          "~2 @corew",
                          "@corew ~1 is|are ~2 big|large|powerful|complex|strong|smart|clever|sophisticated"});
    k.fewer_cores = cue(v, {"fewer|less ~3 @corew"});
    k.few_word = cue(v, {"few|handful|couple|only|limited|SMALLNUM"});
    k.sequential = cue(v, {"one ~1 after ~1 another|other", "one ~3 at ~1 a time", "one by one", "sequen*",
                           "serial|serially", "in series", "in turn", "take|taking|takes turn", "step by step",
                           "single ~1 thread*|core", "one thread|core", "consecutive*", "queue", "linearly",
                           "few|handful|couple ~4 at ~1 a|the ~1 time", "few|handful|couple ~4 at once"});
}

// A matrix multiply as dot products: a multiply-add phrase says what it is made of; the noun "dot
// product" needs the whole it belongs to nearby (a matrix, a layer, a neuron, "many").
void add_product_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.dot_products = cue(v, {"multipl* ~6 add|addition|adding|added|sum|summed|summing|summation|accumulat*",
                             "sum|summing|summed|addition ~4 product|=times|multipl*", "weighted sum",
                             "row ~7 column|col", "column ~4 row", "fma|mac|madd", "sum ~2 over"},
                         "matrix|matrice|matmul");
    k.dot_products.negatable = false;
    k.dot_noun = cue(v, {"dot ~1 product|prod", "dotproduct", "inner|scalar product"});
    k.dot_noun.negatable = false;
    k.doing_word = cue(v, {"do|does|doing|did|compute*|calculat*|run|runs|running|handle*|perform*|process*|work*|"
                           "finish*|take|takes|crunch*|execute*|evaluat*"});
    // After the noun only the whole it belongs to: "dot products of a layer", "one for each output".
    k.dot_whole_after = cue(v, {"matrix|matrice|matmul|layer|neuron|output|entry|element|row|column|each|every"});
    k.dot_whole = cue(v, {"matrix|matrice|matmul|multipl*|layer|neuron|output|entry|element|result|cell|row|column|"
                          "many|more|lot|thousand|million|billion|hundred|BIGNUM|pile|bunch|all|made|consist*|break*|split*|"
                          "compos*|built|just|nothing|each|every|series|collection|set|number"});
}

// Outputs that need nothing from each other: an independence phrase with what is independent.
void add_independence_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.independent = cue(v, {"independen*", "separately", "on its|their own", "by itself|themselves",
                            "in isolation", "isolated", "self contained",
                            "NEG ~4 depend*|rely|relies|reli*|wait*|need*|require*|affect*|interact*|interfer*|care|talk*|share* "
                            "~6 each|one other|another",
                            "NEG ~4 depend*|rely|relies|reli*|wait*|need*|require*|affect*|interact*|interfer*|care|talk*|share* "
                            "~6 each|one|other|others|another|eachother|rest|neighbour*|neighbor*",
                            "need*|require* ~1 NEG ~3 from|of ~3 other|others|each|another|neighbour*|neighbor*|rest",
                            "depend*|rely|relies|wait*|need*|require* ~1 on|upon|for|from ~1 NEG ~3 other|others|each|"
                            "another|eachother|neighbour*|neighbor*|rest",
                            "NEG for|on|from ~3 other|others|each|another|eachother|neighbour*|neighbor*|rest",
                            "NEG ~2 dependenc*|dependent|connection|interaction|communication ~4 between|among|within",
                            "without wait*|depend*|coordinat*|sync*",
                            "embarrassingly|trivially|perfectly|naturally parallel",
                            "any|whatever|arbitrary order", "order ~2 NEG matter"});
    k.independent_thing = cue(v, {"@thing|they|them|these|those|each|every|all|one"});
}

// Layers in order: a layer, a dependence and an order word, or a set phrase.
void add_layer_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.layer_order = cue(v, {"layer by|after layer", "one ~1 layer ~1 at ~1 a time",
                            "layer ~4 sequen*|serial*|consecutive*", "layer ~4 in sequence|order|turn",
                            "layer ~4 one ~1 after ~1 another|other",
                            "sequen*|serial* ~4 layer", "in sequence|order ~4 layer", "one after another ~4 layer",
                            "only ~3 on|upon ~3 previous|prior|preceding|earlier|last",
                            "output|result|answer ~3 of ~3 previous|prior|preceding|earlier|last ~1 layer",
                            // Numbered layers: "layer 2 has to wait for layer 1", "layer two needs layer one's outputs".
                            "layer ~1 SMALLNUM|two|three|four|2|3|4 ~5 depend*|wait*|need*|rely|relies|require* ~4 layer"});
    k.layer_word = cue(v, {"layer"});
    k.depend_word = cue(v, {"depend*", "wait*", "need*", "rely|relies|reli*", "require*", "feed*", "use|uses ~3 output",
                            "start*|begin*|until"});
    k.order_word = cue(v, {"previous|prior|preceding|earlier|before|last|next|following|other|finish*|done|complete*|"
                           "output|result|answer|first|another|eachother"});
}

// Moving the numbers: memory traffic said as such ("memory-bound", "moving the weights"), or a
// noun (bandwidth, HBM, NVLink, a link) with what it does or why it matters beside it.
void add_data_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.data_movement = cue(
        v, {"memory ~3 bandwidth|speed|bound|access|traffic|transfer|bottleneck|wall|throughput|fast|slow|read|"
            "latency|limit*",
            "bound ~2 memory",
            "move|moving|movement|transfer*|copy|copying|copied|fetch*|shuffl*|ship*|send|sending|stream*|load|loading "
            "~4 data|number|weight|value|matri*|tensor|input|activation|parameter|byte|operand",
            "data|number|weight|byte|tensor ~3 move|moving|movement|moved|transfer*|travel*|flow*|copied|shipped|sent",
            "feed ~2 core", "core ~3 fed|starv*", "wait*|waiting ~2 on|for ~2 memory|data|weight|byte"});
    k.data_noun = cue(v, {"bandwidth*", "nvlink", "nv link", "infiniband", "infini band", "pcie|pci", "interconnect*",
                          "hbm|vram|dram", "cache", "communicat*", "link", "wire", "cable", "bus"});
    k.data_matters = cue(v, {"matter*|limit*|bottleneck*|bound|slow*|fast*|speed|wait*|feed*|fed|starv*|move*|moving|"
                             "transfer*|carry|carries|load*|fetch*|stream*|read*|bring*|brought|sent|send*|between|from|"
                             "over|through|across|depend*|decide*|decisive|important|key|cost*|time|take*|need*|high|higher|"
                             "more|enough|too|also|help*|keep*|bottleneck"});
    // What a denial of it takes back: "bandwidth does not matter", "memory isn't the limit".
    k.data_weighs = cue(v, {"matter*|limit*|bottleneck*|important|relevant|count|counts|help*|decide*|decisive|key|issue|"
                            "problem|bound|slow*"});
}

// Reuse: a batch of inputs through a layer together turns a vector product into a matrix product,
// so each weight read from memory serves every input and the work per byte grows with the batch.
void add_reuse_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    constexpr std::string_view many = "many|several|multiple|all|every|each|BIGNUM|whole|lot|entire|batch*";
    constexpr std::string_view inputs = "input|token|example|sample|image|item|sentence|prompt|row|vector|batch*|them";
    const std::string serve = "weight|parameter|number|value ~8 serve*|used|shared|reused|applied|usable ~4 " +
                              std::string(many) + " ~3 " + std::string(inputs);
    const std::string once = "read|load|loaded|fetch*|move|moved|bring|brought|stream*|pull* ~6 once ~8 " +
                             std::string(many) + " ~3 " + std::string(inputs);
    k.reuse = cue(v, {"reuse|reused|reusing|reuses|recycl* ~4 weight|data|number|value|parameter|matri*|operand|it|them|each",
                      "weight|data|parameter|number|value ~4 reuse|reused|reusing|shared|share|recycl*",
                      serve, once,
                      "weight|parameter|number|value ~8 used|reused|serve* ~3 many|several|multiple|BIGNUM|lot|over ~1 "
                      "time|again",
                      "load*|read|fetch*|move|moved|bring|brought|stream*|pull* ~6 once ~8 use|used|reused ~4 "
                      "many|several|multiple|BIGNUM|lot ~1 time",
                      "batch* ~10 matrix|matmul|gemm ~4 matrix|multipl*|product",
                      "vector ~4 product|multipl*|times ~6 become*|turn*|into|grow*|change* ~4 matri*",
                      "batch* ~10 compute|computation|arithmetic|flop ~2 bound|limited|bottleneck*",
                      "batch* ~10 arithmetic|computational|operational|compute intensity",
                      "arithmetic|computational|operational intensity ~8 grow*|increas*|rise*|rising|higher|up|batch*|"
                      "more|larger|bigger",
                      "higher|high|more|greater|larger ~2 arithmetic|computational|operational intensity",
                      "more|higher|lot ~3 flop|flops|operation|calculation|work|math|maths|multiplication ~2 per ~1 "
                      "byte|weight",
                      "input|token|example|sample|image|sentence|prompt ~6 together|batch* ~10 weight|memory|matri*"});
    k.reuse_noun = cue(v, {"batch*", "reuse*", "re use", "intensity", "compute ~1 bound", "roofline", "ridge"});
}

}  // namespace

const Cues& cues() {
    static const Cues c = [] {
        Cues k;
        add_machine_cues(k);
        add_gpu_cues(k);
        add_cpu_cues(k);
        add_product_cues(k);
        add_independence_cues(k);
        add_layer_cues(k);
        add_data_cues(k);
        add_reuse_cues(k);
        add_misconception_cues(k);
        return k;
    }();
    return c;
}

}  // namespace m2m::core::explain_detail
