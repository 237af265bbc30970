#include "io/import/yaml_expansion.h"
#include "io/json_reader.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <map>
#include <sstream>
#include <vector>

namespace cb {

namespace {

struct TooBig
{
    int line;
    std::size_t expanded;
};

// Stops a parse that makes no progress. yaml-cpp 0.7 (Debian 12) hands out an empty document
// for a token it cannot place (a stray ',' or '}' at the top level) without consuming it, so
// HandleNextDocument returns the same empty document for ever (fixed upstream after 0.8). Two
// documents starting at the same place mean it is stuck there: refuse the file at that mark.
class ProgressGuard : public YAML::EventHandler
{
public:
    void OnDocumentStart(const YAML::Mark &mark) final
    {
        if (m_started && mark.pos == m_lastStart)
            throw YAML::ParserException(mark, "unexpected token: no YAML node can start here");
        m_started = true;
        m_lastStart = mark.pos;
    }
    void OnDocumentEnd() override {}

private:
    bool m_started = false;
    int m_lastStart = 0;
};

class ExpansionCounter : public ProgressGuard
{
public:
    explicit ExpansionCounter(std::size_t written)
        : m_limit(written * kYamlExpansionFactor + kYamlExpansionAllowance)
    {}

    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override { leaf(anchor, mark); }
    void OnScalar(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor,
                  const std::string &) override
    {
        leaf(anchor, mark);
    }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        auto it = m_sizes.find(anchor);
        add(it == m_sizes.end() ? 1 : it->second, mark);
    }
    void OnSequenceStart(const YAML::Mark &, const std::string &, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override
    {
        open(anchor);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override
    {
        open(anchor);
    }
    void OnMapEnd() override { close(); }

private:
    void add(std::size_t n, const YAML::Mark &mark)
    {
        if (!m_stack.empty())
            m_stack.back().size += n;
        m_total += n;
        if (m_total > m_limit)
            throw TooBig{mark.line + 1, m_total};
    }
    void leaf(YAML::anchor_t anchor, const YAML::Mark &mark)
    {
        if (anchor)
            m_sizes[anchor] = 1;
        add(1, mark);
    }
    void open(YAML::anchor_t anchor)
    {
        m_stack.push_back({anchor, 1});
        ++m_total;
    }
    void close()
    {
        const Frame f = m_stack.back();
        m_stack.pop_back();
        if (f.anchor)
            m_sizes[f.anchor] = f.size;
        if (!m_stack.empty())
            m_stack.back().size += f.size;
    }

    struct Frame
    {
        YAML::anchor_t anchor;
        std::size_t size;
    };
    std::size_t m_limit;
    std::size_t m_total = 0;
    std::vector<Frame> m_stack;
    std::map<YAML::anchor_t, std::size_t> m_sizes;
};

// Nodes as written: every event counts once.
class WrittenCounter : public ProgressGuard
{
public:
    std::size_t count = 0;
    void OnNull(const YAML::Mark &, YAML::anchor_t) override { ++count; }
    void OnAlias(const YAML::Mark &, YAML::anchor_t) override { ++count; }
    void OnScalar(const YAML::Mark &, const std::string &, YAML::anchor_t,
                  const std::string &) override
    {
        ++count;
    }
    void OnSequenceStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                         YAML::EmitterStyle::value) override
    {
        ++count;
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                    YAML::EmitterStyle::value) override
    {
        ++count;
    }
    void OnMapEnd() override {}
};

template<typename Handler> void parseAll(const std::string &text, Handler &h)
{
    std::istringstream in(text);
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(h)) {
    }
}

} // namespace

Status checkYamlExpansion(const std::string &text, const std::string &file)
{
    try {
        WrittenCounter written;
        parseAll(text, written);
        ExpansionCounter expanded(written.count);
        parseAll(text, expanded);
    } catch (const TooBig &t) {
        return Status::failure(
            file + ":" + std::to_string(t.line),
            "YAML aliases here make the document stand for more than " +
                std::to_string(t.expanded - 1) + " nodes, over " +
                std::to_string(kYamlExpansionFactor) + " times the nodes it writes plus " +
                std::to_string(kYamlExpansionAllowance) +
                ": refused (an alias bomb?); write the nodes out instead of aliasing them");
    } catch (const YAML::Exception &e) {
        // A JSON document (JSON is YAML: `kubectl get nodes -o json`) that is broken is said
        // in JSON's words, "unexpected end of input", not the YAML parser's ("end of sequence
        // flow not found").
        if (const auto first = text.find_first_not_of(" \t\r\n");
            first != std::string::npos && (text[first] == '{' || text[first] == '['))
            if (auto asJson = parseJsonText(text); !asJson)
                return Status::failure(file, asJson.problems().front().message);
        return Status::failure(file + ":" + std::to_string(e.mark.line + 1),
                               "column " + std::to_string(e.mark.column + 1) + ": " + e.msg);
    }
    return Ok{};
}

} // namespace cb
