// The headless ImGui fixture shared by the UI tests.
#include "headless.hpp"

#include <imgui_internal.h>  // the windows' cursor extents, for the clipping check

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "ui/fonts.hpp"
#include "ui/theme.hpp"

namespace m2m::test {

namespace {

std::uint64_t uv_key(ImVec2 uv) {
    std::uint32_t u = 0, v = 0;
    std::memcpy(&u, &uv.x, sizeof u);
    std::memcpy(&v, &uv.y, sizeof v);
    return (std::uint64_t{u} << 32) | v;
}

}  // namespace

// The texture coordinates of every glyph corner of every font: a vertex with one of these is
// part of a letter (rectangles and lines use the atlas's white pixel or its baked lines).
void Headless::collect_glyph_corners() {
    m_glyph_corners.clear();
    for (const ImFont* f : ImGui::GetIO().Fonts->Fonts)
        for (const ImFontGlyph& g : f->Glyphs)
            if (g.Visible)
                for (ImVec2 uv : {ImVec2(g.U0, g.V0), ImVec2(g.U1, g.V0), ImVec2(g.U1, g.V1), ImVec2(g.U0, g.V1)})
                    m_glyph_corners.emplace(uv_key(uv), static_cast<ImWchar>(g.Codepoint));
}

Headless::Headless(float width, float height, float scale) : m_imgui(ImGui::CreateContext()) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width, height);
    io.IniFilename = nullptr;
    // As the app's OpenGL 3.3 renderer says (imgui_impl_opengl3): one draw list may pass 65,536
    // vertices with 16-bit indices, each command starting at its own vertex offset.
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    ui::apply_theme(m_ctx.view, ui::ThemeKind::dark, scale);
    ui::load_fonts(io, scale);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // what a renderer would upload
    collect_glyph_corners();
}

Headless::~Headless() { ImGui::DestroyContext(m_imgui); }

void Headless::frame(const std::function<void()>& body, float dt_s) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = dt_s;
    m_ctx.items.clear();  // as the app does: the registry holds what this frame draws
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
    find_clipped();
}

void Headless::find_clipped() {
    m_clipped.clear();
    // (1) Items past the visible right edge of a window that cannot scroll sideways.
    for (ImGuiWindow* w : GImGui->Windows) {
        if (!w->Active || w->Hidden || w->SkipItems) continue;
        if (w->Flags & (ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_AlwaysAutoResize)) continue;
        if (std::any_of(m_ignored.begin(), m_ignored.end(), [&](const std::string& part) {
                return std::strstr(w->Name, part.c_str()) != nullptr;
            }))
            continue;
        const float over = w->DC.CursorMaxPos.x - w->InnerClipRect.Max.x;
        if (over > 1.0f)
            m_clipped.push_back({std::string("items in window '") + w->Name + "'", over,
                                 ImVec2(w->InnerClipRect.Max.x, w->DC.CursorMaxPos.y)});
    }
    // (2) Letters cut by the edge of the clip rectangle they were drawn in.
    const auto& corners = m_glyph_corners;
    const ImDrawData* dd = ImGui::GetDrawData();
    for (int i = 0; i < dd->CmdListsCount; ++i) {
        const ImDrawList* dl = dd->CmdLists[i];
        Clipped worst{std::string("in draw list '") + (dl->_OwnerName ? dl->_OwnerName : "?") + "'", 0, {}};
        ImWchar letter = 0;
        for (const ImDrawCmd& cmd : dl->CmdBuffer) {
            if (cmd.UserCallback) continue;
            const ImVec4 c = cmd.ClipRect;
            for (unsigned k = cmd.IdxOffset; k < cmd.IdxOffset + cmd.ElemCount; ++k) {
                const ImDrawVert& v = dl->VtxBuffer[static_cast<int>(cmd.VtxOffset + dl->IdxBuffer[static_cast<int>(k)])];
                if (v.pos.y < c.y || v.pos.y > c.w) continue;
                const auto glyph = corners.find(uv_key(v.uv));
                if (glyph == corners.end()) continue;
                const float over = std::max(c.x - v.pos.x, v.pos.x - c.z);
                if (over > 1.5f && over > worst.overflow_px) worst.overflow_px = over, worst.where = v.pos, letter = glyph->second;
            }
        }
        if (worst.overflow_px > 0) {
            char what[32];
            std::snprintf(what, sizeof what, "a glyph (U+%04X) ", static_cast<unsigned>(letter));
            worst.what = what + worst.what;
            m_clipped.push_back(worst);
        }
    }
}

std::string Headless::clipped_text() const {
    std::string out;
    char buf[64];
    for (const Clipped& c : m_clipped) {
        std::snprintf(buf, sizeof buf, ": %.0f px past the edge at (%.0f, %.0f)\n", c.overflow_px, c.where.x, c.where.y);
        out += c.what + buf;
    }
    return out.empty() ? "nothing clipped" : out;
}

}  // namespace m2m::test
