#pragma once
// The placement file: what `clusterbench export --placement FILE` reads, so a placement made
// elsewhere (another tool, a hand edit, a saved run) can be exported.
//
//   {
//     "format": "clusterbench-placement",
//     "version": 1,
//     "jobs": [
//       { "job": "J1", "start": 0,
//         "tasks": [ { "role": "ps", "index": 0, "node": "node-01" },
//                    { "role": "worker", "index": 0, "node": "node-02", "gpus": [0] } ] }
//     ],
//     "waiting": [ "J2" ]
//   }
//
// "start" (seconds, default 0), "gpus" (GPU indices on the node, default none), "waiting"
// (default none) and a task's "group" (index into the job's task groups; by default the group
// whose replicas hold that role index) are optional. Unknown fields are errors. Every problem
// carries its JSON pointer.

#include "model/scenario.h"
#include "model/placement.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <string>

namespace cb {

class PlacementJson
{
public:
    static constexpr const char *kFormatName = "clusterbench-placement";
    static constexpr int kFormatVersion = 1;

    /// Reads a placement; `scenario` supplies task groups when a task omits "group".
    static Result<Placement> fromJson(const nlohmann::json &doc, const Scenario &scenario);
    static Result<Placement> fromText(const std::string &text, const Scenario &scenario);
    /// Problems are prefixed by nothing; format them with the path (Result::error(path)).
    static Result<Placement> loadFile(const std::string &path, const Scenario &scenario);

    /// Canonical form (every field written, fixed key order).
    static nlohmann::ordered_json toJson(const Placement &placement);
};

} // namespace cb
