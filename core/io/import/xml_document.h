#pragma once
// A parsed XML file (libxml2) with line numbers, for the XML importers (NCCL topology, hwloc,
// SimGrid platforms). The parser reads no network resource and no external DTD and does not
// substitute entities, so a file cannot make it fetch or expand anything; errors name the file
// and line. Elements are handed out as small XmlElement values, so no libxml2 type reaches
// the importers' headers.

#include "util/result.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cb {

struct ImportInput;

class XmlElement
{
public:
    XmlElement() = default;
    explicit XmlElement(const void *node) : m_node(node) {}

    explicit operator bool() const { return m_node != nullptr; }
    std::string name() const;
    int line() const;
    /// The attribute's value, or nullopt.
    std::optional<std::string> attribute(const std::string &name) const;
    /// The attribute's value, or `fallback`.
    std::string attribute(const std::string &name, const std::string &fallback) const;
    /// Child elements (all, or those named `name`), in document order.
    std::vector<XmlElement> children(const std::string &name = {}) const;
    /// The first child element named `name`, or an empty element.
    XmlElement child(const std::string &name) const;
    /// The text inside the element (its text and CDATA children).
    std::string text() const;

private:
    const void *m_node = nullptr;
};

class XmlDocument
{
public:
    /// Parses `text`; a failure names `file` and the line of the first error.
    static Result<XmlDocument> parse(const std::string &text, const std::string &file);
    /// Reads `in` whole and parses it (then marks it read), as every XML importer starts.
    static Result<XmlDocument> read(const ImportInput &in);

    XmlElement root() const;
    /// The root element when it is named `name`; otherwise a failure at the root's line in
    /// `file`: "expected WHAT (root <NAME>), found <OTHER>".
    Result<XmlElement> rootNamed(const std::string &name, const std::string &what,
                                 const std::string &file) const;

private:
    std::shared_ptr<void> m_doc;
};

} // namespace cb
