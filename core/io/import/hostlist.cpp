#include "io/import/hostlist.h"

#include "io/import/text_fields.h"

namespace cb {

namespace {

using Names = std::vector<std::string>;

// Expands the inside of one bracket pair ("0,2-3", "01-16") to suffix strings.
Result<Names> expandRanges(const std::string &inside, const std::string &whole)
{
    Names out;
    for (const std::string &partRaw : importtext::split(inside, ',')) {
        const std::string part = importtext::trim(partRaw);
        const auto dash = part.find('-');
        const std::string lo = part.substr(0, dash);
        const std::string hi = dash == std::string::npos ? lo : part.substr(dash + 1);
        auto a = importtext::parseInteger(lo);
        auto b = importtext::parseInteger(hi);
        if (lo.empty() || hi.empty() || !a || !b || *a < 0 || *b < 0 ||
            lo.find_first_not_of("0123456789") != std::string::npos ||
            hi.find_first_not_of("0123456789") != std::string::npos)
            return Result<Names>::failure(whole, "expected a number or range such as 1-4 in "
                                                 "brackets, found \"" +
                                                     part + "\"");
        if (*b < *a)
            return Result<Names>::failure(whole, "range " + part + " runs backwards");
        if (*b - *a > 1000000)
            return Result<Names>::failure(whole, "range " + part + " is too large");
        const std::size_t width = lo.size();
        for (long long v = *a; v <= *b; ++v) {
            std::string s = std::to_string(v);
            if (s.size() < width)
                s.insert(0, width - s.size(), '0');
            out.push_back(std::move(s));
        }
    }
    return out;
}

// Expands one name pattern without top-level commas: literal text and bracket groups.
Result<Names> expandOne(const std::string &pattern, std::size_t limit)
{
    Names acc{""};
    std::size_t i = 0;
    while (i < pattern.size()) {
        const auto open = pattern.find('[', i);
        const std::string literal = pattern.substr(i, open - i);
        for (std::string &s : acc)
            s += literal;
        if (open == std::string::npos)
            break;
        const auto close = pattern.find(']', open);
        if (close == std::string::npos)
            return Result<Names>::failure(pattern, "unclosed '[' in host list");
        auto suffixes = expandRanges(pattern.substr(open + 1, close - open - 1), pattern);
        if (!suffixes)
            return suffixes.problems();
        if (acc.size() * suffixes->size() > limit)
            return Result<Names>::failure(pattern, "host list expands to more than " +
                                                       std::to_string(limit) + " names");
        Names next;
        next.reserve(acc.size() * suffixes->size());
        for (const std::string &a : acc)
            for (const std::string &s : suffixes.value())
                next.push_back(a + s);
        acc = std::move(next);
        i = close + 1;
    }
    return acc;
}

} // namespace

Result<std::vector<std::string>> expandHostlist(const std::string &expression, std::size_t limit)
{
    Names out;
    std::string current;
    int depth = 0;
    auto flush = [&]() -> Status {
        const std::string p = importtext::trim(current);
        current.clear();
        if (p.empty())
            return Ok{};
        auto names = expandOne(p, limit);
        if (!names)
            return names.problems();
        out.insert(out.end(), names->begin(), names->end());
        if (out.size() > limit)
            return Status::failure(expression, "host list expands to more than " +
                                                   std::to_string(limit) + " names");
        return Ok{};
    };
    for (char c : expression) {
        if (c == '[')
            ++depth;
        else if (c == ']')
            --depth;
        if (c == ',' && depth == 0) {
            if (auto s = flush(); !s)
                return s.problems();
        } else {
            current += c;
        }
    }
    if (auto s = flush(); !s)
        return s.problems();
    return out;
}

} // namespace cb
