// "Explain it back": answers in other languages, empty ones, symbols, broken bytes and very long
// ones, each with its exact checklist (a data table; explain_answers.hpp runs it).
#include "explain_answers.hpp"

using namespace m2m;
using core::AnswerKind;
using test::AnswerCase;

namespace {

std::vector<AnswerCase> other_languages() {
    return {
        {"Greek", "\xce\x9f \xcf\x80\xce\xbf\xce\xbb\xce\xbb\xce\xb1\xcf\x80\xce\xbb\xce\xb1\xcf\x83\xce\xb9\xce\xb1\xcf\x83"
                  "\xce\xbc\xcf\x8c\xcf\x82 \xcf\x80\xce\xb9\xce\xbd\xce\xac\xce\xba\xcf\x89\xce\xbd \xce\xb5\xce\xaf\xce\xbd"
                  "\xce\xb1\xce\xb9 \xcf\x80\xce\xbf\xce\xbb\xce\xbb\xce\xac \xce\xb5\xcf\x83\xcf\x89\xcf\x84\xce\xb5\xcf\x81"
                  "\xce\xb9\xce\xba\xce\xac \xce\xb3\xce\xb9\xce\xbd\xcf\x8c\xce\xbc\xce\xb5\xce\xbd\xce\xb1 \xcf\x83\xce\xb5 "
                  "\xce\xbc\xce\xb9\xce\xb1 GPU.",
         AnswerKind::not_english, "none", "none"},
        {"Chinese", "\xe7\x9f\xa9\xe9\x98\xb5\xe4\xb9\x98\xe6\xb3\x95\xe6\x98\xaf\xe5\xbe\x88\xe5\xa4\x9a\xe7\x82\xb9\xe7\xa7"
                    "\xaf\xef\xbc\x8c GPU \xe6\x9c\x89\xe6\x88\x90\xe5\x8d\x83\xe4\xb8\x8a\xe4\xb8\x87\xe4\xb8\xaa\xe5\xb0\x8f"
                    "\xe6\xa0\xb8\xe5\xbf\x83\xe3\x80\x82",
         AnswerKind::not_english, "none", "none"},
        {"German", "Die Matrixmultiplikation besteht aus vielen Skalarprodukten, die unabh\xc3\xa4ngig voneinander "
                   "berechnet werden k\xc3\xb6nnen, deshalb ist eine Grafikkarte besser.",
         AnswerKind::not_english, "none", "none"},
        {"Spanish, where a cognate still reads as the idea",
         "Una multiplicaci\xc3\xb3n de matrices son muchos productos escalares independientes, y la GPU tiene miles de "
         "n\xc3\xba" "cleos que los calculan al mismo tiempo, mientras que la CPU tiene pocos n\xc3\xba" "cleos.",
         AnswerKind::not_english, "independent_outputs", "none"},
        {"French", "Une multiplication de matrices est compos\xc3\xa9" "e de nombreux produits scalaires "
                   "ind\xc3\xa9pendants, donc le GPU avec ses milliers de coeurs peut les calculer en m\xc3\xaame temps.",
         AnswerKind::not_english, "none", "none"},
        {"Portuguese typed without accents",
         "Uma multiplicacao de matrizes e feita de muitos produtos escalares independentes e a GPU tem milhares de "
         "nucleos que fazem tudo ao mesmo tempo.",
         AnswerKind::not_english, "none", "none", "independent_outputs"},
        {"Russian", "\xd0\xa3\xd0\xbc\xd0\xbd\xd0\xbe\xd0\xb6\xd0\xb5\xd0\xbd\xd0\xb8\xd0\xb5 \xd0\xbc\xd0\xb0\xd1\x82\xd1"
                    "\x80\xd0\xb8\xd1\x86 \xd1\x81\xd0\xbe\xd1\x81\xd1\x82\xd0\xbe\xd0\xb8\xd1\x82 \xd0\xb8\xd0\xb7 \xd0\xbd"
                    "\xd0\xb5\xd0\xb7\xd0\xb0\xd0\xb2\xd0\xb8\xd1\x81\xd0\xb8\xd0\xbc\xd1\x8b\xd1\x85 \xd1\x81\xd0\xba\xd0\xb0"
                    "\xd0\xbb\xd1\x8f\xd1\x80\xd0\xbd\xd1\x8b\xd1\x85 \xd0\xbf\xd1\x80\xd0\xbe\xd0\xb8\xd0\xb7\xd0\xb2\xd0\xb5"
                    "\xd0\xb4\xd0\xb5\xd0\xbd\xd0\xb8\xd0\xb9, GPU \xd1\x81\xd1\x87\xd0\xb8\xd1\x82\xd0\xb0\xd0\xb5\xd1\x82 "
                    "\xd0\xb8\xd1\x85 \xd0\xbe\xd0\xb4\xd0\xbd\xd0\xbe\xd0\xb2\xd1\x80\xd0\xb5\xd0\xbc\xd0\xb5\xd0\xbd\xd0\xbd"
                    "\xd0\xbe.",
         AnswerKind::not_english, "none", "none"},
        {"Japanese", "\xe8\xa1\x8c\xe5\x88\x97\xe3\x81\xae\xe7\xa9\x8d\xe3\x81\xaf\xe3\x81\x9f\xe3\x81\x8f\xe3\x81\x95\xe3"
                     "\x82\x93\xe3\x81\xae\xe5\x86\x85\xe7\xa9\x8d\xe3\x81\xa7\xe3\x81\xa7\xe3\x81\x8d\xe3\x81\xa6\xe3\x81\x84"
                     "\xe3\x81\xa6\xe3\x80\x81GPU\xe3\x81\xaf\xe4\xbd\x95\xe5\x8d\x83\xe3\x82\x82\xe3\x81\xae\xe3\x82\xb3\xe3"
                     "\x82\xa2\xe3\x81\xa7\xe5\x90\x8c\xe6\x99\x82\xe3\x81\xab\xe8\xa8\x88\xe7\xae\x97\xe3\x81\xa7\xe3\x81\x8d"
                     "\xe3\x82\x8b\xe3\x80\x82",
         AnswerKind::not_english, "none", "none"},
        {"Hindi", "\xe0\xa4\xae\xe0\xa5\x88\xe0\xa4\x9f\xe0\xa5\x8d\xe0\xa4\xb0\xe0\xa4\xbf\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4"
                  "\xb8 \xe0\xa4\x97\xe0\xa5\x81\xe0\xa4\xa3\xe0\xa4\xbe \xe0\xa4\xac\xe0\xa4\xb9\xe0\xa5\x81\xe0\xa4\xa4 "
                  "\xe0\xa4\xb8\xe0\xa4\xbe\xe0\xa4\xb0\xe0\xa5\x87 \xe0\xa4\xa1\xe0\xa5\x89\xe0\xa4\x9f "
                  "\xe0\xa4\xaa\xe0\xa5\x8d\xe0\xa4\xb0\xe0\xa5\x8b\xe0\xa4\xa1\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\x9f "
                  "\xe0\xa4\xb9\xe0\xa5\x88\xe0\xa4\x82, GPU \xe0\xa4\x89\xe0\xa4\xa8\xe0\xa5\x8d\xe0\xa4\xb9\xe0\xa5\x87"
                  "\xe0\xa4\x82 \xe0\xa4\x8f\xe0\xa4\x95 \xe0\xa4\xb8\xe0\xa4\xbe\xe0\xa4\xa5 \xe0\xa4\x95\xe0\xa4\xb0"
                  "\xe0\xa4\xa4\xe0\xa4\xbe \xe0\xa4\xb9\xe0\xa5\x88\xe0\xa5\xa4",
         AnswerKind::not_english, "none", "none"},
        {"English and Spanish in one sentence", "La GPU has thousands of cores que trabajan al mismo tiempo.",
         AnswerKind::answer, "gpu_many_cores", "none"},
    };
}

std::vector<AnswerCase> empty_and_odd() {
    return {
        {"empty", "", AnswerKind::empty, "none", "none"},
        {"white space only", "   \n\t  \n", AnswerKind::empty, "none", "none"},
        {"Unicode spaces only", "\xc2\xa0\xe3\x80\x80\xe2\x80\x83", AnswerKind::empty, "none", "none"},
        {"emoji only", "\xf0\x9f\x9a\x80\xf0\x9f\x9a\x80\xf0\x9f\x94\xa5 \xf0\x9f\xa4\xb7", AnswerKind::no_words, "none",
         "none"},
        {"question marks", "???", AnswerKind::no_words, "none", "none"},
        {"a number", "42", AnswerKind::no_words, "none", "none"},
        {"English with a symbol and an emoji",
         "A GPU \xf0\x9f\x9a\x80 has thousands of cores that compute \xcf\x83(w\xc2\xb7" "a) for every neuron at once.",
         AnswerKind::answer, "gpu_many_cores", "none"},
        {"broken UTF-8 bytes, and a dot product left dangling",
         "A GPU has thousands of \xff\xfe cores\xc3 and a CPU \xe2\x82 has few cores \xed\xa0\x80 one at a time.\x01 dot "
         "products",
         AnswerKind::answer, "gpu_many_cores,cpu_few_cores", "none", "dot_products"},
        {"a NUL byte inside", std::string("A GPU has thousands of cores\0 that run them at once.", 52), AnswerKind::answer,
         "gpu_many_cores", "none"},
    };
}

std::vector<AnswerCase> very_long() {
    const std::string ramble =
        "Honestly I think about this a lot because my laptop has a GPU and it gets really hot when I play games, and my "
        "friend says that is because it is doing a lot of maths. ";
    return {
        {"the same good sentence two hundred times",
         test::repeated("GPUs have thousands of small cores that run the dot products of a layer at once. ", 200),
         AnswerKind::answer, "dot_products,gpu_many_cores", "none"},
        {"a long ramble, then the point",
         test::repeated(ramble, 40) + "In the end a CPU has a few cores and does the neurons one after another.",
         AnswerKind::answer, "cpu_few_cores", "none"},
        {"a wall of one letter", std::string(15000, 'a'), AnswerKind::answer, "none", "none"},
    };
}

}  // namespace

TEST_CASE("an answer in another language is recognised and said to be out of the checker's reach") {
    test::check_answers(other_languages());
}

TEST_CASE("an empty, symbol-only or broken answer gets specific feedback and never a crash") {
    test::check_answers(empty_and_odd());
}

TEST_CASE("a very long answer under the cap is read whole, with the same checklist as a short one") {
    test::check_answers(very_long());
}
