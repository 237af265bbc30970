#include "io/import/xml_document.h"

#include "io/import/import_input.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <climits>
#include <mutex>

namespace cb {

namespace {

const xmlNode *node(const void *p)
{
    return static_cast<const xmlNode *>(p);
}

std::string str(const xmlChar *s)
{
    return s ? std::string(reinterpret_cast<const char *>(s)) : std::string();
}

// libxml2 prints its errors to stderr unless told otherwise; ours go into the Result.
void silence(void *, const char *, ...) {}

} // namespace

std::string XmlElement::name() const
{
    return m_node ? str(node(m_node)->name) : std::string();
}

int XmlElement::line() const
{
    return m_node ? int(xmlGetLineNo(node(m_node))) : 0;
}

std::optional<std::string> XmlElement::attribute(const std::string &name) const
{
    if (!m_node)
        return std::nullopt;
    xmlChar *v = xmlGetProp(node(m_node), reinterpret_cast<const xmlChar *>(name.c_str()));
    if (!v)
        return std::nullopt;
    std::string out = str(v);
    xmlFree(v);
    return out;
}

std::string XmlElement::attribute(const std::string &name, const std::string &fallback) const
{
    return attribute(name).value_or(fallback);
}

std::vector<XmlElement> XmlElement::children(const std::string &name) const
{
    std::vector<XmlElement> out;
    if (!m_node)
        return out;
    for (const xmlNode *c = node(m_node)->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && (name.empty() || str(c->name) == name))
            out.emplace_back(c);
    return out;
}

XmlElement XmlElement::child(const std::string &name) const
{
    if (!m_node)
        return {};
    for (const xmlNode *c = node(m_node)->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && str(c->name) == name)
            return XmlElement(c);
    return {};
}

std::string XmlElement::text() const
{
    std::string out;
    if (!m_node)
        return out;
    for (const xmlNode *c = node(m_node)->children; c; c = c->next)
        if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE)
            out += str(c->content);
    return out;
}

Result<XmlDocument> XmlDocument::parse(const std::string &text, const std::string &file)
{
    static std::once_flag once;
    std::call_once(once, [] {
        xmlInitParser();
        xmlSetGenericErrorFunc(nullptr, silence);
    });
    if (text.size() > std::size_t(INT_MAX))
        return Result<XmlDocument>::failure(file, "too big for an XML topology file (over 2 GiB)");
    xmlParserCtxtPtr ctx = xmlNewParserCtxt();
    if (!ctx)
        return Result<XmlDocument>::failure(file, "cannot start the XML parser");
    // No network, no external DTD, no entity substitution; keep line numbers.
    const int options = XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR;
    xmlDocPtr doc =
        xmlCtxtReadMemory(ctx, text.data(), int(text.size()), file.c_str(), nullptr, options);
    if (!doc) {
        const xmlError *e = xmlCtxtGetLastError(ctx);
        std::string msg = e && e->message ? e->message : "not well-formed XML";
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' '))
            msg.pop_back();
        const int line = e ? e->line : 0;
        xmlFreeParserCtxt(ctx);
        return Result<XmlDocument>::failure(file + (line > 0 ? ":" + std::to_string(line) : ""),
                                            "XML: " + msg);
    }
    xmlFreeParserCtxt(ctx);
    XmlDocument d;
    d.m_doc = std::shared_ptr<void>(doc, [](void *p) { xmlFreeDoc(static_cast<xmlDocPtr>(p)); });
    return d;
}

Result<XmlDocument> XmlDocument::read(const ImportInput &in)
{
    auto text = in.wholeText();
    if (!text)
        return text.problems();
    auto doc = parse(text.value(), in.name);
    if (doc)
        in.done();
    return doc;
}

Result<XmlElement> XmlDocument::rootNamed(const std::string &name, const std::string &what,
                                          const std::string &file) const
{
    const XmlElement r = root();
    if (r.name() == name)
        return r;
    return Result<XmlElement>::failure(file + ":" + std::to_string(r.line()),
                                       "expected " + what + " (root <" + name + ">), found <" +
                                           r.name() + ">");
}

XmlElement XmlDocument::root() const
{
    return XmlElement(m_doc ? xmlDocGetRootElement(static_cast<xmlDocPtr>(m_doc.get())) : nullptr);
}

} // namespace cb
