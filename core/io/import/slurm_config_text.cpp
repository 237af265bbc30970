#include "io/import/slurm_config_text.h"

#include "io/import/text_fields.h"

#include <algorithm>
#include <cctype>

namespace cb {

bool SlurmConfigLine::has(const std::string &key) const
{
    return count(key) > 0;
}

std::string SlurmConfigLine::value(const std::string &key, const std::string &fallback) const
{
    std::string v = fallback;
    for (const auto &[k, val] : pairs)
        if (k == key)
            v = val;
    return v;
}

int SlurmConfigLine::count(const std::string &key) const
{
    int n = 0;
    for (const auto &kv : pairs)
        n += kv.first == key;
    return n;
}

std::vector<SlurmConfigLine> parseSlurmConfig(const std::string &input)
{
    std::string text = input;
    importtext::stripBom(text);
    std::vector<SlurmConfigLine> out;
    const std::vector<std::string> physical = importtext::split(text, '\n');
    std::string logical;
    int startLine = 0;
    for (std::size_t i = 0; i < physical.size(); ++i) {
        std::string l = physical[i];
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
        // Cut the comment: a '#' not escaped by a backslash and not inside quotes.
        bool quoted = false;
        std::string kept;
        for (std::size_t c = 0; c < l.size(); ++c) {
            if (l[c] == '"')
                quoted = !quoted;
            if (l[c] == '#' && !quoted) {
                if (c > 0 && l[c - 1] == '\\') {
                    kept.back() = '#';
                    continue;
                }
                break;
            }
            kept += l[c];
        }
        if (logical.empty())
            startLine = int(i) + 1;
        const std::string t = importtext::trim(kept);
        if (!t.empty() && t.back() == '\\') {
            logical += t.substr(0, t.size() - 1) + " ";
            continue;
        }
        logical += t;
        if (importtext::trim(logical).empty()) {
            logical.clear();
            continue;
        }
        SlurmConfigLine line;
        line.line = startLine;
        // Tokens split on blanks outside quotes.
        std::string token;
        bool inQuote = false;
        auto flush = [&] {
            if (token.empty())
                return;
            const auto eq = token.find('=');
            std::string key = importtext::lower(token.substr(0, eq));
            std::string value = eq == std::string::npos ? std::string() : token.substr(eq + 1);
            line.pairs.emplace_back(std::move(key), std::move(value));
            token.clear();
        };
        for (char ch : logical) {
            if (ch == '"') {
                inQuote = !inQuote;
                continue;
            }
            if ((ch == ' ' || ch == '\t') && !inQuote)
                flush();
            else
                token += ch;
        }
        flush();
        logical.clear();
        if (!line.pairs.empty())
            out.push_back(std::move(line));
    }
    return out;
}

namespace {

// "-3", "99999999999999999999", "4K": written as a count, whatever its value.
bool looksLikeCount(const std::string &s)
{
    std::size_t i = s.empty() || s[0] != '-' ? 0 : 1;
    const std::size_t digits = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
        ++i;
    if (i == digits)
        return false;
    if (i + 1 == s.size() && std::string("KkMmGg").find(s[i]) != std::string::npos)
        ++i;
    return i == s.size();
}

} // namespace

std::optional<std::vector<SlurmGres>> parseSlurmGres(const std::string &spec, std::string *error)
{
    std::vector<SlurmGres> out;
    // Split on commas outside parentheses.
    std::vector<std::string> items;
    std::string cur;
    int depth = 0;
    for (char c : spec) {
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        if (c == ',' && depth == 0) {
            items.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    items.push_back(cur);
    for (std::string item : items) {
        if (auto p = item.find('('); p != std::string::npos)
            item = item.substr(0, p);
        item = importtext::trim(item);
        if (item.empty() || importtext::lower(item) == "(null)")
            continue;
        std::vector<std::string> parts = importtext::split(item, ':');
        std::erase(parts, std::string("no_consume"));
        SlurmGres g;
        g.name = importtext::lower(parts[0]);
        // A count, with an optional K, M or G suffix (1024-based, as Slurm reads them), up to
        // kMaxGresCount: beyond that it is not a count of devices.
        auto countOf = [](std::string s) -> std::optional<long long> {
            long long mult = 1;
            if (!s.empty() && (s.back() == 'K' || s.back() == 'k'))
                mult = 1024;
            else if (!s.empty() && (s.back() == 'M' || s.back() == 'm'))
                mult = 1024 * 1024;
            else if (!s.empty() && (s.back() == 'G' || s.back() == 'g'))
                mult = 1024LL * 1024 * 1024;
            if (mult > 1)
                s.pop_back();
            auto v = importtext::parseInteger(s);
            if (!v || *v < 0 || *v > kMaxGresCount / mult)
                return std::nullopt;
            return *v * mult;
        };
        if (parts.size() == 2) {
            if (auto c = countOf(parts[1])) {
                g.count = *c;
            } else if (looksLikeCount(parts[1])) {
                if (error)
                    *error = "expected a count from 0 to " + std::to_string(kMaxGresCount) +
                             " after \"" + parts[0] + ":\", found \"" + parts[1] + "\"";
                return std::nullopt;
            } else {
                g.type = parts[1]; // "gpu:tesla" means one GPU of that type
            }
        } else if (parts.size() >= 3) {
            g.type = parts[1];
            auto c = countOf(parts[2]);
            if (!c) {
                if (error)
                    *error = "expected a count after \"" + parts[0] + ":" + parts[1] +
                             ":\", found \"" + parts[2] + "\"" +
                             (looksLikeCount(parts[2])
                                  ? " (a count is from 0 to " + std::to_string(kMaxGresCount) + ")"
                                  : std::string());
                return std::nullopt;
            }
            g.count = *c;
        }
        if (g.name.empty()) {
            if (error)
                *error = "empty GRES name in \"" + spec + "\"";
            return std::nullopt;
        }
        out.push_back(g);
    }
    return out;
}

std::string slurmStateBlocking(const std::string &state)
{
    auto blocking = [](std::string t) -> std::string {
        const bool notResponding = t.find('*') != std::string::npos;
        // (a state's flag characters: * not responding, ~ powered off, # powering up, % powering
        // down, ! pending power down, $ maintenance, @ pending reboot, ^ rebooting, - planned)
        while (!t.empty() && std::string("*~#%!$@^-").find(t.back()) != std::string::npos)
            t.pop_back();
        for (char &c : t)
            c = char(std::toupper(static_cast<unsigned char>(c)));
        if (t == "DOWN" || t == "FUTURE" || t == "INVAL" || t == "NOT_RESPONDING")
            return t;
        if (t == "NO_RESPOND")
            return "NOT_RESPONDING";
        if (t == "DRAIN" || t == "DRAINED" || t == "DRAINING")
            return "DRAIN";
        if (t == "FAIL" || t == "FAILING")
            return "FAIL";
        return notResponding ? "NOT_RESPONDING" : "";
    };
    std::size_t start = 0;
    while (start <= state.size()) {
        const std::size_t end = std::min(state.find('+', start), state.size());
        if (std::string b = blocking(state.substr(start, end - start)); !b.empty())
            return b;
        start = end + 1;
    }
    return {};
}

} // namespace cb
