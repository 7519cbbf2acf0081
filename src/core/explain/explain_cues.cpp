// "Explain it back": the checker's cues, one phrase list per thing a student may write (a table of
// patterns, grouped by idea; explain_parts.hpp says how a pattern is written).
#include "explain_parts.hpp"

namespace m2m::core::explain_detail {

namespace {

// The words that name each machine, and "core" itself.
void add_machine_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.gpu = cue(v, {"@gpu", "graphic card|processor|processing|chip|unit|board", "video card", "tensor core"});
    k.cpu = cue(v, {"cpu", "central processing unit", "central processor", "processor", "xeon|epyc|ryzen"});
    k.core_word = cue(v, {"@corew", "=ones"});
}

// The GPU's side: many cores, or doing the work all at once.
void add_gpu_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.many_cores = cue(v,
                       {"thousand|hundred|many|lot|ton|load|plenty|multitude|myriad|army|huge|massive|countless ~3 "
                        "core|thread|alu|processor|unit|worker|lane|calculator",
                        "more ~2 core|thread|alu", "BIGNUM ~2 core|thread|alu|unit|processor|lane|worker",
                        "massively|highly|extremely|hugely|very parallel", "massive|huge|enormous ~1 parallelism",
                        "cuda core", "small|tiny|simple|little|weak ~2 core"});
    k.many_word = cue(v, {"many|thousand|hundred|lot|ton|load|plenty|countless|more|BIGNUM"});
    k.parallel = cue(v, {"parallel", "parallel*", "paralleli*", "at once", "same time", "simultan*", "concurren*",
                         "all together", "in one go", "side by side", "in one step", "all in one"});
}

// The CPU's side: a few big cores, or one thing after another.
void add_cpu_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.few_cores = cue(v, {"few|fewer|handful|couple|less|only ~3 core|thread|processor|worker|alu",
                          "small|limited|low number ~3 core|thread|processor",
                          "SMALLNUM ~2 core|thread|processor",
                          "big|large|powerful|complex|fast|strong|beefy|fat|heavy|smart|clever|sophisticated|general "
                          "~2 core|thread|processor"});
    k.few_word = cue(v, {"few|fewer|handful|couple|only|less|limited|SMALLNUM"});
    k.sequential = cue(v, {"one ~1 after ~1 another|other", "one ~3 at ~1 a time", "one by one", "sequen*",
                           "serial|serially", "in series", "in turn", "take|taking|takes turn", "step by step",
                           "single ~1 thread*|core", "one thread|core", "consecutive*", "queue", "linearly"});
}

// A matrix multiply as dot products, and outputs that need nothing from each other.
void add_product_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.dot_products = cue(v, {"dot ~1 product|prod|products", "dotproduct", "inner|scalar product",
                             "multipl* ~6 add|addition|adding|added|sum|summed|summing|summation|accumulat*",
                             "sum|summing|summed|addition ~4 product|=times|multipl*", "weighted sum",
                             "row ~7 column|col", "column ~4 row", "fma|mac|madd"},
                         "matrix|matrice|matmul");
    k.dot_products.negatable = false;
    k.independent = cue(v, {"independen*", "separately", "on its|their own", "by itself|themselves",
                            "in isolation", "isolated", "self contained",
                            "NEG ~4 depend*|rely|relies|reli*|wait*|need*|require*|affect*|interact*|interfer*|care "
                            "~6 each|one other|another",
                            "NEG ~4 depend*|rely|relies|reli*|wait*|need*|require*|affect*|interact*|interfer*|care "
                            "~6 each|one|other|others|another|eachother|rest|neighbour*|neighbor*",
                            "NEG ~2 dependenc*|dependent|connection|interaction|communication ~4 between|among|within",
                            "without wait*|depend*|coordinat*|sync*",
                            "embarrassingly|trivially|perfectly|naturally parallel",
                            "any|whatever|arbitrary order", "order ~2 NEG matter"});
}

// Layers in order: a layer, a dependence and an order word, or a set phrase.
void add_layer_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.layer_order = cue(v, {"layer by|after layer", "one ~1 layer ~1 at ~1 a time",
                            "layer ~4 sequen*|serial*|consecutive*", "layer ~4 in sequence|order|turn",
                            "layer ~4 one ~1 after ~1 another|other",
                            "sequen*|serial* ~4 layer", "in sequence|order ~4 layer", "one after another ~4 layer",
                            "only ~3 on|upon ~3 previous|prior|preceding|earlier|last",
                            "output|result|answer ~3 of ~3 previous|prior|preceding|earlier|last ~1 layer"});
    k.layer_word = cue(v, {"layer"});
    k.depend_word = cue(v, {"depend*", "wait*", "need*", "rely|relies|reli*", "require*", "feed*", "use|uses ~3 output",
                            "start*|begin*|until"});
    k.order_word = cue(v, {"previous|prior|preceding|earlier|before|last|next|following|other|finish*|done|complete*|"
                           "output|result|answer|first|another|eachother"});
}

// Moving the numbers: bandwidth, links, memory traffic.
void add_data_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.data_movement = cue(
        v, {"bandwidth*", "nvlink", "nv link", "infiniband", "infini band", "pcie|pci", "interconnect*", "hbm|vram|dram",
            "cache", "memory ~3 bandwidth|speed|bound|access|traffic|transfer|bottleneck|wall|throughput|fast|slow|read|"
            "latency|limit*",
            "bound ~2 memory",
            "move|moving|movement|transfer*|copy|copying|copied|fetch*|shuffl*|ship*|send|sending|stream*|load|loading "
            "~4 data|number|weight|value|matri*|tensor|input|activation|parameter|byte|operand",
            "data|number|weight|byte|tensor ~3 move|moving|movement|moved|transfer*|travel*|flow*|copied|shipped|sent",
            "communicat*", "link", "wire", "cable", "bus", "feed ~2 core", "core ~3 fed|starv*"});
}

// Wrong ideas the checker answers with a correction.
void add_misconception_cues(Cues& k) {
    Vocabulary& v = k.vocab;
    k.gpu_faster = cue(v, {"@gpu ~2 core|thread ~4 faster|quicker|stronger|powerful|speedier",
                           "@cpu ~2 core|thread ~4 slower|weaker", "@cpu ~2 core|thread ~4 less powerful",
                           "@gpu ~4 higher|faster|greater|better ~2 clock|frequency|ghz"},
                       "", "NEG|together|combined|overall|collectively|total|many|thousand|all");
    k.cpu_more = cue(v, {"@cpu ~4 more|many|thousand|hundred|lot|BIGNUM ~2 core|thread", "@gpu ~4 fewer|less ~2 core|thread"},
                     "",
                     "NEG|few|fewer|less|handful|@gpu|powerful|complex|capable|advanced|sophisticated|big|bigger|larger|"
                     "stronger|faster|smart|clever|general");
    // Plural "layers" only: "the GPU computes the layer at once" is right.
    k.layers_parallel = cue(v, {"all|different|separate|multiple|several|the ~1 =layers ~6 independen*|parallel|simultan*|concurren*",
                                "all|different|separate|multiple|several|the ~1 =layers ~6 at once",
                                "all|different|separate|multiple|several|the ~1 =layers ~6 same time",
                                "=layers ~3 are|can|run*|be ~3 independen*|parallel|simultan*",
                                "=layers ~3 are|can|run*|be ~3 at once"},
                            "in|within|of|inside|same|each|per|one|a|the|its|their|every",
                            "NEG|neuron|output|node|dot|unit|element|product|core|calculation|computation|inside|within");
}

}  // namespace

const Cues& cues() {
    // Built in the order the vocabulary was always interned, once.
    static const Cues c = [] {
        Cues k;
        add_machine_cues(k);
        add_gpu_cues(k);
        add_cpu_cues(k);
        add_product_cues(k);
        add_layer_cues(k);
        add_data_cues(k);
        add_misconception_cues(k);
        return k;
    }();
    return c;
}

}  // namespace m2m::core::explain_detail
