#pragma once
// Errors as values: a Result<T> holds either a T or a list of problems. Every problem names
// where it is (a file, a line, or a JSON pointer) and what was expected there.

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cb {

/// One thing wrong with an input: where (JSON pointer "/cluster/nodes/3/gpus", or "line 12")
/// and what was expected.
struct Problem
{
    std::string where;
    std::string message;

    std::string toString() const { return where.empty() ? message : where + ": " + message; }
    bool operator==(const Problem &) const = default;
};

using Problems = std::vector<Problem>;

/// Joins problems into one message, one per line, each prefixed with `prefix` (a file name).
std::string formatProblems(const Problems &problems, const std::string &prefix = {});

/// The same problems with `prefix` put before each one's where ("/runs/2" + "/policy").
Problems prefixed(const Problems &problems, const std::string &prefix);

/// Reached when code takes the value of a failed Result (a bug: the caller did not check).
/// Logs "internal error: the value of a failed result was used: PROBLEMS" to stderr and
/// throws std::logic_error with the same text, which the terminal commands report (exit 1)
/// instead of reading memory that holds no value.
[[noreturn]] void failedResultUsed(const Problems &problems);

template<typename T>
class [[nodiscard]] Result
{
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Problems problems) : m_problems(std::move(problems))
    {
        if (m_problems.empty())
            m_problems.push_back({{}, "unknown error"});
    }
    static Result failure(std::string where, std::string message)
    {
        return Result(Problems{{std::move(where), std::move(message)}});
    }

    bool ok() const { return m_value.has_value(); }
    explicit operator bool() const { return ok(); }
    /// The value; on a failed result a soft assert (failedResultUsed), never undefined
    /// behaviour.
    const T &value() const &
    {
        check();
        return *m_value;
    }
    T &value() &
    {
        check();
        return *m_value;
    }
    T &&value() &&
    {
        check();
        return std::move(*m_value);
    }
    const T *operator->() const
    {
        check();
        return &*m_value;
    }
    T *operator->()
    {
        check();
        return &*m_value;
    }
    const Problems &problems() const { return m_problems; }
    std::string error(const std::string &prefix = {}) const
    {
        return formatProblems(m_problems, prefix);
    }

private:
    void check() const
    {
        if (!m_value) [[unlikely]]
            failedResultUsed(m_problems);
    }

    std::optional<T> m_value;
    Problems m_problems;
};

/// Result for operations that produce nothing but may fail.
struct Ok
{};
using Status = Result<Ok>;

} // namespace cb
