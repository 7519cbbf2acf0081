// The OpenGL compute path: one buffer per layer, dispatches issued in slices that each sit inside
// one GL_TIME_ELAPSED query, and the outputs read back for the check.
//
// [SECTION] probing the context   [SECTION] setting up   [SECTION] slices   [SECTION] factory
#include "measure/gl_path.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "m2m/core/engine/text.hpp"
#include "measure/measurement.hpp"

namespace m2m::measure {

extern const char* const dense_layer_comp;  // shaders/dense_layer.comp, embedded at build time

namespace {

constexpr GLuint local_size = 64;  // must match local_size_x in the shader

// [SECTION] probing the context -------------------------------------------------------------

std::string gl_string(GLenum e) {
    const auto* s = reinterpret_cast<const char*>(glGetString(e));
    return s ? s : "";
}

GpuInfo probe() {
    GpuInfo info;
    if (!glad_glGetString || !glad_glGetIntegerv || !glGetString(GL_VERSION)) {
        info.why_not = "no OpenGL context is open";
        return info;
    }
    info.vendor = gl_string(GL_VENDOR);
    info.renderer = gl_string(GL_RENDERER);
    info.version = gl_string(GL_VERSION);
    info.software = is_software_renderer(info.renderer);
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if ((major > 4 || (major == 4 && minor >= 3)) && glad_glDispatchCompute) {
        info.available = true;
        return info;
    }
    info.why_not = "compute shaders need OpenGL 4.3, and this context offers OpenGL " + std::to_string(major) + "." +
                   std::to_string(minor) + " (" + info.renderer + "), so the GPU row cannot run here";
    return info;
}

class GlRun final : public GpuRun {
public:
    GlRun() : m_info(probe()) {}
    ~GlRun() override { release(); }
    GlRun(const GlRun&) = delete;
    GlRun& operator=(const GlRun&) = delete;

    const GpuInfo& info() const override { return m_info; }
    void start(const Problem& p, int repeats) override;
    bool step(double budget_s) override;
    double progress() const override;
    const GpuOutcome& outcome() const override { return m_out; }

private:
    enum class Stage { upload, warm_up, timed, done };
    void fail(const std::string& why);
    void release();
    bool compile();
    bool make_buffer(GLuint& id, std::size_t floats, const float* data, const char* what);
    void upload_next();
    void issue_chunk(double budget_s);
    void record(double seconds);
    void dispatch(std::size_t layer);
    void read_back();
    std::int64_t layers() const { return static_cast<std::int64_t>(m_p->layers()); }
    double layer_flops(std::int64_t d) const {
        const auto l = static_cast<std::size_t>(d % layers());
        return 2.0 * m_p->batch * m_p->widths[l] * m_p->widths[l + 1];
    }

    GpuInfo m_info;
    GpuOutcome m_out;
    const Problem* m_p = nullptr;
    int m_requested_repeats = 1;
    Stage m_stage = Stage::done;
    GLuint m_program = 0, m_input = 0, m_act[2] = {0, 0}, m_query = 0;
    std::vector<GLuint> m_weights, m_biases;
    GLint m_loc_n_in = -1, m_loc_n_out = -1, m_loc_squash = -1;
    std::size_t m_uploaded = 0;
    // Dispatch d of a stage runs layer d % layers of pass d / layers.
    std::int64_t m_next = 0;
    bool m_pending = false;
    double m_chunk_flops = 0;
    double m_seconds_per_flop = 0;  ///< from the last slice, to size the next one
    double m_warm_seconds = 0, m_pass_seconds = 0, m_last_pass = 0;
    int m_warm_passes = 0;
    int m_repeat = 0;
    double m_repeat_seconds = 0, m_timed_flops = 0;
    Timing m_timing;
};

// [SECTION] setting up ----------------------------------------------------------------------

void GlRun::fail(const std::string& why) {
    m_out = {};
    m_out.why_not = why;
    m_stage = Stage::done;
    release();
}

void GlRun::release() {
    if (!glad_glDeleteBuffers) return;
    if (m_program) glDeleteProgram(m_program);
    if (m_query) glDeleteQueries(1, &m_query);
    for (GLuint* b : {&m_input, &m_act[0], &m_act[1]})
        if (*b) glDeleteBuffers(1, b);
    if (!m_weights.empty()) glDeleteBuffers(static_cast<GLsizei>(m_weights.size()), m_weights.data());
    if (!m_biases.empty()) glDeleteBuffers(static_cast<GLsizei>(m_biases.size()), m_biases.data());
    m_program = m_query = m_input = m_act[0] = m_act[1] = 0;
    m_weights.clear();
    m_biases.clear();
    m_pending = false;
}

bool GlRun::compile() {
    const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &dense_layer_comp, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = {};
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        glDeleteShader(shader);
        fail(std::string("the compute shader did not compile: ") + log);
        return false;
    }
    m_program = glCreateProgram();
    glAttachShader(m_program, shader);
    glLinkProgram(m_program);
    glDeleteShader(shader);
    glGetProgramiv(m_program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = {};
        glGetProgramInfoLog(m_program, sizeof log, nullptr, log);
        fail(std::string("the compute shader did not link: ") + log);
        return false;
    }
    m_loc_n_in = glGetUniformLocation(m_program, "n_in");
    m_loc_n_out = glGetUniformLocation(m_program, "n_out");
    m_loc_squash = glGetUniformLocation(m_program, "squash");
    return true;
}

bool GlRun::make_buffer(GLuint& id, std::size_t floats, const float* data, const char* what) {
    GLint64 max_block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
    const auto bytes = static_cast<GLsizeiptr>(floats * sizeof(float));
    if (max_block > 0 && bytes > max_block) {
        fail(std::string(what) + " needs a " + core::format_bytes(static_cast<double>(bytes)) + " buffer, larger than the " +
             core::format_bytes(static_cast<double>(max_block)) + " this OpenGL allows a shader to read");
        return false;
    }
    glGenBuffers(1, &id);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, id);
    glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, data, GL_STATIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    if (glGetError() == GL_OUT_OF_MEMORY) {
        fail(std::string("the GPU ran out of memory for ") + what + " (" + core::format_bytes(static_cast<double>(bytes)) + ")");
        return false;
    }
    return true;
}

void GlRun::start(const Problem& p, int repeats) {
    m_p = &p;
    m_requested_repeats = repeats;
    m_out = {};
    m_timing = {};
    if (!m_info.available) {
        fail(m_info.why_not);
        return;
    }
    while (glGetError() != GL_NO_ERROR) {
    }
    if (!compile()) return;
    const int widest = *std::max_element(p.widths.begin() + 1, p.widths.end());
    const auto act = static_cast<std::size_t>(p.batch) * static_cast<std::size_t>(widest);
    if (!make_buffer(m_input, p.inputs.size(), p.inputs.data(), "the inputs")) return;
    for (GLuint& a : m_act)
        if (!make_buffer(a, act, nullptr, "the activations")) return;
    glGenQueries(1, &m_query);
    m_weights.assign(p.layers(), 0);
    m_biases.assign(p.layers(), 0);
    m_uploaded = 0;
    m_stage = Stage::upload;
}

/// One layer per slice: at 4096 x 4096 that is 64 MB, a noticeable pause if done all at once.
void GlRun::upload_next() {
    const std::size_t l = m_uploaded;
    const auto n_in = static_cast<std::size_t>(m_p->widths[l]), n_out = static_cast<std::size_t>(m_p->widths[l + 1]);
    std::vector<float> t(n_in * n_out);  // input-major, so neighbouring invocations read neighbouring floats
    const std::vector<float>& w = m_p->weights[l];
    for (std::size_t j = 0; j < n_out; ++j)
        for (std::size_t i = 0; i < n_in; ++i) t[i * n_out + j] = w[j * n_in + i];
    char what[64];
    std::snprintf(what, sizeof what, "layer %zu's weights", l + 1);
    if (!make_buffer(m_weights[l], t.size(), t.data(), what)) return;
    if (!make_buffer(m_biases[l], n_out, m_p->biases[l].data(), "the biases")) return;
    if (++m_uploaded == m_p->layers()) {
        m_stage = Stage::warm_up;
        m_next = 0;
    }
}

// [SECTION] slices --------------------------------------------------------------------------

void GlRun::dispatch(std::size_t l) {
    const GLuint in = l == 0 ? m_input : m_act[(l - 1) % 2];
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, m_weights[l]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, m_biases[l]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, in);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, m_act[l % 2]);
    glUniform1i(m_loc_n_in, m_p->widths[l]);
    glUniform1i(m_loc_n_out, m_p->widths[l + 1]);
    glUniform1i(m_loc_squash, layer_has_sigmoid(*m_p, l) ? 1 : 0);
    const auto groups = (static_cast<GLuint>(m_p->widths[l + 1]) + local_size - 1) / local_size;
    glDispatchCompute(groups, static_cast<GLuint>(m_p->batch), 1);
    // The next layer reads what this one wrote.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

/// Dispatches from the cursor inside one timer query, about `budget_s` of GPU work (at least one
/// dispatch). A slice never crosses the end of a warm-up pass or of a timed repeat, so every
/// query's time belongs to exactly one of them.
void GlRun::issue_chunk(double budget_s) {
    const std::int64_t L = layers();
    const std::int64_t limit = m_stage == Stage::warm_up
                                   ? (m_next / L + 1) * L
                                   : static_cast<std::int64_t>(m_repeat + 1) * m_timing.passes_per_repeat * L;
    glUseProgram(m_program);
    glBeginQuery(GL_TIME_ELAPSED, m_query);
    double flops = 0;
    do {
        dispatch(static_cast<std::size_t>(m_next % L));
        flops += layer_flops(m_next);
        ++m_next;
    } while (m_next < limit && m_seconds_per_flop > 0 && (flops + layer_flops(m_next)) * m_seconds_per_flop <= budget_s);
    glEndQuery(GL_TIME_ELAPSED);
    glFlush();
    m_chunk_flops = flops;
    m_pending = true;
}

void GlRun::record(double seconds) {
    const std::int64_t L = layers();
    if (m_chunk_flops > 0) m_seconds_per_flop = seconds / m_chunk_flops;
    if (m_stage == Stage::warm_up) {
        m_warm_seconds += seconds;
        m_pass_seconds += seconds;
        if (m_next % L != 0) return;  // the pass goes on
        m_last_pass = m_pass_seconds;
        m_pass_seconds = 0;
        ++m_warm_passes;
        // The first pass also pays for compiling the shader; a second one shows the steady pace.
        const bool enough = m_warm_seconds >= 0.02 && (m_warm_passes >= 2 || m_last_pass > 0.25);
        if (!enough) return;
        m_timing.passes_per_repeat = passes_for(m_last_pass);
        m_timing.repeats = repeats_for(m_last_pass, m_requested_repeats);
        m_stage = Stage::timed;
        m_next = 0;
        return;
    }
    m_repeat_seconds += seconds;
    m_timed_flops += m_chunk_flops;
    const std::int64_t P = m_timing.passes_per_repeat;
    if (m_next != static_cast<std::int64_t>(m_repeat + 1) * P * L) return;
    m_timing.repeat_seconds.push_back(m_repeat_seconds / static_cast<double>(P));
    m_repeat_seconds = 0;
    if (++m_repeat < m_timing.repeats) return;
    m_timing.seconds = median(m_timing.repeat_seconds);
    read_back();
}

void GlRun::read_back() {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    m_out.output.resize(m_p->outputs());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_act[(m_p->layers() - 1) % 2]);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(m_out.output.size() * sizeof(float)),
                       m_out.output.data());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    m_out.ok = true;
    m_out.timing = m_timing;
    m_out.flops = static_cast<std::int64_t>(m_timed_flops / (static_cast<double>(m_timing.repeats) * m_timing.passes_per_repeat));
    m_stage = Stage::done;
    release();
}

bool GlRun::step(double budget_s) {
    if (m_stage == Stage::done) return true;
    GLint program = 0;  // the window's renderer keeps its own state; leave it as found
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    if (m_stage == Stage::upload) {
        upload_next();
    } else if (m_pending) {
        GLint available = 0;
        glGetQueryObjectiv(m_query, GL_QUERY_RESULT_AVAILABLE, &available);
        if (available) {
            GLuint64 ns = 0;
            glGetQueryObjectui64v(m_query, GL_QUERY_RESULT, &ns);
            m_pending = false;
            record(static_cast<double>(ns) * 1e-9);
        }
    }
    if ((m_stage == Stage::warm_up || m_stage == Stage::timed) && !m_pending) issue_chunk(budget_s);
    glUseProgram(static_cast<GLuint>(program));
    // Wake a window that waits for input between frames, so the next slice comes next frame.
    if (m_stage != Stage::done && glfwGetCurrentContext()) glfwPostEmptyEvent();
    return m_stage == Stage::done;
}

double GlRun::progress() const {
    switch (m_stage) {
    case Stage::upload: return m_p ? 0.1 * static_cast<double>(m_uploaded) / static_cast<double>(m_p->layers()) : 0;
    case Stage::warm_up: return 0.1 + 0.1 * std::min(1.0, m_warm_seconds / 0.02);
    case Stage::timed: {
        const double total = static_cast<double>(m_timing.repeats) * m_timing.passes_per_repeat * static_cast<double>(layers());
        return 0.2 + 0.8 * std::min(1.0, static_cast<double>(m_next) / std::max(total, 1.0));
    }
    case Stage::done: return 1.0;
    }
    return 0;
}

}  // namespace

// [SECTION] factory -------------------------------------------------------------------------

std::unique_ptr<GpuRun> make_gl_run() { return std::make_unique<GlRun>(); }

void use_gl_path() { set_gpu_factory(&make_gl_run); }

}  // namespace m2m::measure
