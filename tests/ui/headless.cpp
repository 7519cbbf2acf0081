// The headless ImGui fixture shared by the UI tests.
#include "headless.hpp"

#include <algorithm>

#include "ui/fonts.hpp"
#include "ui/theme.hpp"

namespace m2m::test {

Headless::Headless(float width, float height, float scale) : m_ctx(ImGui::CreateContext()) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width, height);
    io.IniFilename = nullptr;
    ui::apply_theme(ui::ThemeKind::dark, scale);
    ui::load_fonts(io, scale);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // what a renderer would upload
}

Headless::~Headless() { ImGui::DestroyContext(m_ctx); }

void Headless::frame(const std::function<void()>& body, float dt_s) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = dt_s;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("lesson", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
    body();
    ImGui::End();
    ImGui::Render();
    const ImDrawData* dd = ImGui::GetDrawData();
    m_overflow = 0;
    for (int i = 0; i < dd->CmdListsCount; ++i)
        for (const ImDrawVert& v : dd->CmdLists[i]->VtxBuffer) {
            const float o = std::max({-v.pos.x, -v.pos.y, v.pos.x - io.DisplaySize.x, v.pos.y - io.DisplaySize.y});
            if (o > m_overflow) m_overflow = o, m_worst = v.pos;
        }
}

}  // namespace m2m::test
