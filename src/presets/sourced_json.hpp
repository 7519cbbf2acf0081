// What every preset file shares: a document with one list of entries, each entry's text fields
// non-empty strings and each figure {"value": number, "source": text}; and finding an entry by
// id. One reader, so hardware and model presets refuse bad files the same way.
#pragma once

#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "m2m/presets/presets.hpp"

namespace m2m::presets::detail {

/// The document `text`, checked to be an object holding the list `list`; `file` names it in the
/// refusals ("the preset file is not valid JSON", "... needs a "compute" list").
inline nlohmann::json open_document(std::string_view text, const std::string& file, const char* list) {
    nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded()) throw PresetError(file + " is not valid JSON");
    if (!doc.is_object() || !doc.contains(list) || !doc.at(list).is_array())
        throw PresetError(file + " needs a \"" + list + "\" list");
    return doc;
}

struct RawFigure {
    double value;
    std::string source;
};

/// Reads one entry of a preset list. Its refusals name the entry by its place ("compute[3]")
/// until its id is read, then by the id ("preset 'h100'"); range checks stay with the caller.
class EntryReader {
public:
    EntryReader(const nlohmann::json& entry, const char* list, std::size_t index)
        : m_entry(entry), m_where(std::string(list) + "[" + std::to_string(index) + "]") {
        if (!entry.is_object()) throw PresetError(m_where + " is not an object");
    }

    /// The entry's "id"; from here on refusals call it `noun` 'id'.
    std::string id(const char* noun) {
        std::string v = text("id");
        m_where = std::string(noun) + " '" + v + "'";
        return v;
    }

    /// A non-empty text field, one of `allowed` when that is given.
    std::string text(const char* key, std::initializer_list<const char*> allowed = {}) const {
        if (!m_entry.contains(key) || !m_entry.at(key).is_string() || m_entry.at(key).get<std::string>().empty())
            fail("missing text field \"" + std::string(key) + "\"");
        std::string v = m_entry.at(key).get<std::string>();
        if (allowed.size() == 0) return v;
        std::string list;
        for (const char* a : allowed) {
            if (v == a) return v;
            list += (list.empty() ? "" : ", ") + std::string(a);
        }
        fail("\"" + std::string(key) + "\" must be one of " + list);
    }

    bool flag(const char* key) const {
        if (!m_entry.contains(key) || !m_entry.at(key).is_boolean())
            fail("missing true/false field \"" + std::string(key) + "\"");
        return m_entry.at(key).get<bool>();
    }

    /// The figure `key`, checked for shape (a finite number and a non-empty source); nullopt
    /// when absent and not required.
    std::optional<RawFigure> raw_figure(const char* key, bool required) const {
        if (!m_entry.contains(key)) {
            if (required) fail("missing \"" + std::string(key) + "\"");
            return std::nullopt;
        }
        const nlohmann::json& f = m_entry.at(key);
        if (!f.is_object() || !f.contains("value") || !f.at("value").is_number())
            fail("\"" + std::string(key) + "\" needs a numeric \"value\"");
        if (!f.contains("source") || !f.at("source").is_string() || f.at("source").get<std::string>().empty())
            fail("\"" + std::string(key) + "\" needs a \"source\" (every figure names where it is from)");
        const double v = f.at("value").get<double>();
        if (!std::isfinite(v)) fail("\"" + std::string(key) + "\" must be a positive number");
        return RawFigure{v, f.at("source").get<std::string>()};
    }

    /// A text value with its source, {"value": "text", "source": "..."}, one of `allowed`.
    std::pair<std::string, std::string> sourced_text(const char* key, std::initializer_list<const char*> allowed) const {
        if (!m_entry.contains(key)) fail("missing \"" + std::string(key) + "\"");
        const nlohmann::json& f = m_entry.at(key);
        if (!f.is_object() || !f.contains("value") || !f.at("value").is_string())
            fail("\"" + std::string(key) + "\" needs a text \"value\"");
        if (!f.contains("source") || !f.at("source").is_string() || f.at("source").get<std::string>().empty())
            fail("\"" + std::string(key) + "\" needs a \"source\" (every figure names where it is from)");
        const std::string v = f.at("value").get<std::string>();
        std::string list;
        for (const char* a : allowed) {
            if (v == a) return {v, f.at("source").get<std::string>()};
            list += (list.empty() ? "" : ", ") + std::string(a);
        }
        fail("\"" + std::string(key) + "\" must be one of " + list);
    }

    /// Refuses the entry: "<where>: <what>".
    [[noreturn]] void fail(const std::string& what) const { throw PresetError(m_where + ": " + what); }

private:
    const nlohmann::json& m_entry;
    std::string m_where;
};

/// The item of `items` whose id (`id_of(item)`) is `id`, or nullptr.
template <class T, class IdOf>
const T* find_by_id(const std::vector<T>& items, std::string_view id, IdOf id_of) {
    for (const T& item : items)
        if (id_of(item) == id) return &item;
    return nullptr;
}

/// The ids of `items`, in file order.
template <class T, class IdOf>
std::vector<std::string> ids_of(const std::vector<T>& items, IdOf id_of) {
    std::vector<std::string> out;
    for (const T& item : items) out.push_back(id_of(item));
    return out;
}

/// "a, b, c": ids as a flag's refusal lists them.
inline std::string joined(const std::vector<std::string>& ids) {
    std::string out;
    for (const std::string& id : ids) out += (out.empty() ? "" : ", ") + id;
    return out;
}

}  // namespace m2m::presets::detail
