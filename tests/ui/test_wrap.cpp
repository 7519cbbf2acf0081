// Paragraphs wrap at spaces only: ImGui 1.86's own wrapping also breaks after '.', ',' and ';',
// which split "busbw reaches 0.461 GB/s" across two lines on a 1024-wide projector.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "headless.hpp"
#include "ui/widgets.hpp"

using namespace m2m;

namespace {

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

}  // namespace

TEST_CASE("paragraphs wrap at spaces, never inside 0.461 or 1,024, and each line fits") {
    test::Headless ui(1024, 768);
    const std::string text =
        "Each ring leaves a node 16 times over InfiniBand NDR, but with 8 rings on 8 NICs per node the InfiniBand "
        "sends take about as long as the NVLink ones: neither wire waits for long, and busbw reaches 0.461 GB/s "
        "across 1,024 GPUs; done.";
    ui.frame([&] {
        const float dot = ImGui::CalcTextSize("and busbw reaches 0.").x;
        // Widths at which ImGui's own wrapping could end a line right after "0." or "1,".
        for (float width = dot * 0.8f; width < dot * 3.0f; width += 3.0f) {
            INFO("width " << width);
            const std::string wrapped = ui::wrap_at_spaces(text, width);
            std::string joined;
            for (const std::string& line : lines_of(wrapped)) {
                CHECK_FALSE(line.ends_with("0."));
                CHECK_FALSE(line.ends_with("1,"));
                const bool single_word = line.find(' ') == std::string::npos;
                CHECK((single_word || ImGui::CalcTextSize(line.c_str()).x <= width));
                joined += (joined.empty() ? "" : " ") + line;
            }
            CHECK(joined == text);  // nothing lost, nothing added
        }
    });
    // Newlines in the text stay, and a word wider than the line gets a line of its own.
    ui.frame([&] {
        CHECK(ui::wrap_at_spaces("one\ntwo", 1000) == "one\ntwo");
        CHECK(ui::wrap_at_spaces("a verylongword b", ImGui::CalcTextSize("a ").x) == "a\nverylongword\nb");
        CHECK(ui::wrap_at_spaces("", 100).empty());
    });
}

TEST_CASE("a combo box's closed text is the name where it fits, else without its maker, else cut with an ellipsis") {
    test::Headless ui;
    ui.frame([&] {
        const std::string name = "DeepSeek-V3 (mixture of experts)";
        const float arrow = ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2;
        const float whole = ImGui::CalcTextSize(name.c_str()).x + arrow;
        CHECK(ui::combo_preview(name, whole + 1) == name);
        const std::string one_short = ui::combo_preview(name, whole - 1);
        CHECK_THAT(one_short, Catch::StartsWith("DeepSeek-V3 (mixture of") && Catch::EndsWith("\xe2\x80\xa6"));
        CHECK(ImGui::CalcTextSize(one_short.c_str()).x <= whole - 1 - arrow);
        const float narrow = ImGui::CalcTextSize("DeepSe").x + arrow;
        const std::string cut = ui::combo_preview(name, narrow);
        CHECK_THAT(cut, Catch::StartsWith("Deep") && Catch::EndsWith("\xe2\x80\xa6"));
        CHECK(ImGui::CalcTextSize(cut.c_str()).x <= narrow - arrow);
        // Two server CPUs stay apart when cut.
        const float cpu = ImGui::CalcTextSize("Server CPU (Xeon Pla").x + arrow;
        CHECK(ui::combo_preview("Server CPU (Xeon Platinum 8480+)", cpu) != ui::combo_preview("Server CPU (AMD EPYC 9654)", cpu));
        // The maker goes before the model is cut: "NVIDIA A10…" named another GPU.
        const float gpu = ImGui::CalcTextSize("NVIDIA A100").x + arrow;
        const std::string a100 = ui::combo_preview("NVIDIA A100 SXM 80GB", gpu);
        CHECK_THAT(a100, Catch::StartsWith("A100"));
        CHECK(ImGui::CalcTextSize(a100.c_str()).x <= gpu - arrow);
        CHECK(ui::combo_preview("NVIDIA A100 SXM 80GB", ImGui::CalcTextSize("A100 SXM 80GB").x + arrow + 1) == "A100 SXM 80GB");
    });
}
