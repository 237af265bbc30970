#pragma once
// Object names for Kubernetes: job ids become DNS-1035 labels (lowercase letters, digits and
// '-', starting with a letter, at most kMaxJobNameLength characters so that pod and task
// names derived from them stay within the 63-character label limit).

#include <string>
#include <vector>

namespace cb {

class KubernetesNames
{
public:
    static constexpr std::size_t kMaxJobNameLength = 40;

    /// Deterministic names for `ids`, in the same order, pairwise distinct. An id that is
    /// already a valid short name is kept; any other is sanitised and gets "-" plus six hex
    /// digits of a hash of the original id, so "a_b" and "a.b" stay apart. Remaining clashes
    /// get "-2", "-3", ... in input order.
    static std::vector<std::string> jobNames(const std::vector<std::string> &ids);

    /// True for a DNS-1123 label (what a pod hostname and a namespace must be).
    static bool isDns1123Label(const std::string &s);
    /// True for a DNS-1123 subdomain (what a Node's and a PersistentVolumeClaim's name must
    /// be): dot-separated DNS-1123 labels, at most 253 characters.
    static bool isDns1123Subdomain(const std::string &s);
    /// True for a DNS-1035 label (a Service name: DNS-1123 label starting with a letter).
    static bool isDns1035Label(const std::string &s);
    /// True for a valid label key: an optional DNS-1123 subdomain prefix and '/', then a name
    /// of at most 63 of [A-Za-z0-9._-] beginning and ending with a letter or digit.
    static bool isLabelKey(const std::string &key);
    /// True for a valid label value (empty, or <= 63 of [A-Za-z0-9._-], alphanumeric ends).
    static bool isLabelValue(const std::string &s);
    /// `value` when it is a valid label value, else a valid one derived from it: the
    /// characters [A-Za-z0-9._-] kept (others as '-'), cut to fit, and "-" plus eight hex
    /// digits of a hash of the whole value, so two different values stay apart. The same
    /// value always gives the same label (a node's label and a selector agree).
    static std::string labelValue(const std::string &value);
    /// Eight hex digits of SHA-256 over `s`: the suffix of derived label values and node names.
    static std::string valueHash(const std::string &s);
    /// Lowercase [a-z0-9-] form of `s` with runs of other characters as one '-', no leading
    /// or trailing '-'. Used for Volcano task names and Slurm GPU type names too.
    static std::string sanitize(const std::string &s);
};

} // namespace cb
