#!/usr/bin/env python3
"""Print every YAML document of the given files as JSON, for tests that check what a strict
YAML 1.1 reader (PyYAML, with libyaml when available) makes of exported manifests.

Usage: yaml_to_json.py FILE...
Prints one JSON object {"file": FILE, "documents": [...]} per line, ASCII only. Exit code 0,
or 1 with the reader's message on stderr when a file does not parse.
"""

import json
import sys

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def main(argv):
    status = 0
    for path in argv:
        try:
            with open(path, encoding="utf-8") as f:
                docs = [d for d in yaml.load_all(f, Loader=LOADER) if d is not None]
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
            print("%s: %s" % (path, e), file=sys.stderr)
            status = 1
            continue
        print(json.dumps({"file": path, "documents": docs}, ensure_ascii=True))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
