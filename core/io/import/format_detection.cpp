#include "io/import/format_detection.h"

#include "io/import/csv_reader.h"
#include "io/import/text_fields.h"

namespace cb::detection {

std::vector<std::string> firstRow(const std::string &head, char delimiter)
{
    std::size_t start = 0;
    while (start < head.size()) {
        std::size_t end = head.find('\n', start);
        if (end == std::string::npos)
            end = head.size();
        const std::string line = head.substr(start, end - start);
        if (!importtext::trim(line).empty()) {
            auto rows = CsvReader(delimiter).read(line, "");
            if (!rows || rows->empty())
                return {};
            std::vector<std::string> out;
            for (const std::string &f : rows->front().fields)
                out.push_back(importtext::trim(f));
            return out;
        }
        start = end + 1;
    }
    return {};
}

bool hasAll(const std::vector<std::string> &row, const std::vector<std::string> &names)
{
    for (const std::string &n : names) {
        bool found = false;
        for (const std::string &f : row)
            found = found || f == n;
        if (!found)
            return false;
    }
    return true;
}

std::string headerText(const std::vector<std::string> &row)
{
    std::string s;
    for (const std::string &f : row) {
        const std::string shown = importtext::shown(f);
        if (!s.empty())
            s += ',';
        s.append(shown, 1, shown.size() - 2);
        if (s.size() > 80) {
            s.resize(80);
            s.append("...");
            return s;
        }
    }
    return s;
}

std::string xmlRoot(const std::string &head)
{
    std::size_t i = 0;
    while (true) {
        while (i < head.size() &&
               (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
            ++i;
        if (i >= head.size() || head[i] != '<')
            return {};
        if (head.compare(i, 4, "<!--") == 0) {
            const auto end = head.find("-->", i + 4);
            if (end == std::string::npos)
                return {};
            i = end + 3;
            continue;
        }
        if (head.compare(i, 2, "<?") == 0 || head.compare(i, 2, "<!") == 0) {
            const auto end = head.find('>', i);
            if (end == std::string::npos)
                return {};
            i = end + 1;
            continue;
        }
        std::size_t j = i + 1;
        while (j < head.size() && head[j] != ' ' && head[j] != '>' && head[j] != '/' &&
               head[j] != '\n' && head[j] != '\t' && head[j] != '\r')
            ++j;
        return head.substr(i + 1, j - i - 1);
    }
}

char firstSignificant(const std::string &head)
{
    bool comment = false;
    for (char c : head) {
        if (comment) {
            comment = c != '\n';
            continue;
        }
        if (c == '#') {
            comment = true;
            continue;
        }
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return c;
    }
    return '\0';
}

bool yamlKey(const std::string &head, std::string_view key)
{
    std::size_t start = 0;
    while (start < head.size()) {
        std::size_t end = head.find('\n', start);
        if (end == std::string::npos)
            end = head.size();
        std::string_view line(head.data() + start, end - start);
        while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
            line.remove_prefix(1);
        if (line.starts_with("- "))
            line.remove_prefix(2);
        while (!line.empty() && line.front() == ' ')
            line.remove_prefix(1);
        if (line.starts_with(key) && line.size() > key.size() && line[key.size()] == ':')
            return true;
        start = end + 1;
    }
    return false;
}

std::vector<std::string> yamlTopKeys(const std::string &head)
{
    std::vector<std::string> keys;
    std::size_t start = 0;
    bool first = true;
    while (start < head.size()) {
        std::size_t end = head.find('\n', start);
        if (end == std::string::npos)
            end = head.size();
        std::string_view line(head.data() + start, end - start);
        start = end + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos || line.front() == '#' ||
            line.front() == ' ' || line.front() == '\t' || line.front() == '-')
            continue;
        // "key:" or "key: value" with a plain key (a CSV header has commas, not this)
        const std::size_t colon = line.find(':');
        const bool plain =
            colon != std::string_view::npos && colon > 0 &&
            line.substr(0, colon).find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/") ==
                std::string_view::npos &&
            (colon + 1 == line.size() || line[colon + 1] == ' ');
        if (!plain) {
            if (first)
                return {};
            continue;
        }
        first = false;
        keys.emplace_back(line.substr(0, colon));
    }
    return keys;
}

bool jsonKey(const std::string &head, std::string_view key)
{
    const std::string quoted = "\"" + std::string(key) + "\"";
    std::size_t at = 0;
    while ((at = head.find(quoted, at)) != std::string::npos) {
        std::size_t j = at + quoted.size();
        while (j < head.size() &&
               (head[j] == ' ' || head[j] == '\t' || head[j] == '\n' || head[j] == '\r'))
            ++j;
        if (j < head.size() && head[j] == ':')
            return true;
        at = j;
    }
    return false;
}

bool lineStartsWithKey(const std::string &head, std::string_view key)
{
    const std::string want = importtext::lower(key) + "=";
    std::size_t start = 0;
    while (start < head.size()) {
        std::size_t end = head.find('\n', start);
        if (end == std::string::npos)
            end = head.size();
        std::string line = importtext::lower(importtext::trim(head.substr(start, end - start)));
        if (line.starts_with(want))
            return true;
        start = end + 1;
    }
    return false;
}

bool isNumber(const std::string &s)
{
    return importtext::parseNumber(s).has_value();
}

std::string jsonString(const std::string &head, std::string_view key)
{
    const std::string quoted = "\"" + std::string(key) + "\"";
    for (std::size_t at = head.find(quoted); at != std::string::npos;
         at = head.find(quoted, at + 1)) {
        std::size_t i = head.find_first_not_of(" \t\r\n", at + quoted.size());
        if (i == std::string::npos || head[i] != ':')
            continue;
        i = head.find_first_not_of(" \t\r\n", i + 1);
        if (i == std::string::npos || head[i] != '"')
            return {};
        const std::size_t end = head.find('"', i + 1);
        return end == std::string::npos ? std::string() : head.substr(i + 1, end - i - 1);
    }
    return {};
}

std::string notText(const std::string &head)
{
    if (const auto bad = importtext::invalidUtf8At(head); bad && *bad + 4 < head.size())
        return "byte " + std::to_string(*bad + 1) + " is not UTF-8";
    for (std::size_t i = 0; i < head.size(); ++i) {
        const auto ch = static_cast<unsigned char>(head[i]);
        if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
            return "byte " + std::to_string(i + 1) + " is a control character";
    }
    return {};
}

} // namespace cb::detection
