#!/usr/bin/env python3
"""Validate Kubernetes manifests against the schemas copied in tests/data/schemas.

Usage: validate_k8s.py [--schemas DIR] [--per-file] FILE.yaml...

Validate many files in one run: starting Python and loading the schemas costs about a
second, checking a document a millisecond or so. --per-file adds one line per file,
"FILE: N document(s), M invalid", so a caller can tell the files of one run apart.

Every YAML (or JSON) document of every file is matched by apiVersion and kind to a schema;
a v1 List (what `kubectl get -o json` prints) counts as its items:
  v1 Pod, Service, Node           Kubernetes v1.30 standalone-strict JSON schemas
  kubeflow.org/v1 TFJob, PyTorchJob, MPIJob  Kubeflow training-operator v1.9.0 CRDs
  kubeflow.org/v2beta1 MPIJob     mpi-operator v0.8.0 CRD
  batch.volcano.sh/v1alpha1 Job, topology.volcano.sh/v1alpha1 HyperNode  Volcano v1.15.1 CRDs
  jobset.x-k8s.io/v1alpha2 JobSet  JobSet CRD (kubernetes-sigs/jobset main, 2026-08)
  kueue.x-k8s.io/v1beta2 Topology, ResourceFlavor, ClusterQueue, LocalQueue  Kueue CRDs
                                  (kubernetes-sigs/kueue main, 2026-08)
CRD schemas are checked strictly, as the API server does with strict field validation
(kubectl's default): an object schema that lists properties and does not preserve unknown
fields rejects any other key. On top of the schemas the script checks what only the API
server's validation would catch: object names (DNS-1123 / DNS-1035 labels, a Node's a
DNS-1123 subdomain), namespaces, label keys and values, container and port names, a pod's
nodeName (a DNS-1123 subdomain) and the values node affinity and nodeSelector match against
(label values).

Prints one line per problem ("FILE: doc N (Kind name): /json/pointer: message") and a summary.
Exit code 0 when every document is valid, 1 when any is not, 2 on bad usage or unreadable
input (missing file, YAML syntax error, unknown kind).
"""

import copy
import json
import os
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:  # pragma: no cover - reported to the caller
    print("validate_k8s.py: missing Python module: %s" % e, file=sys.stderr)
    sys.exit(3)

# libyaml's parser when PyYAML was built with it (Debian's is): the same safe constructors
# and YAML 1.1 resolvers as yaml.SafeLoader, about ten times faster on large manifests.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMAS = os.path.join(HERE, "..", "data", "schemas")

# (apiVersion, kind) -> (relative path, is_crd)
SCHEMAS = {
    ("v1", "Pod"): ("k8s-v1.30.0-standalone-strict/pod-v1.json", False),
    ("v1", "Service"): ("k8s-v1.30.0-standalone-strict/service-v1.json", False),
    ("v1", "Node"): ("k8s-v1.30.0-standalone-strict/node-v1.json", False),
    ("batch/v1", "Job"): ("k8s-v1.30.0-standalone-strict/job-batch-v1.json", False),
    ("kubeflow.org/v1", "TFJob"):
        ("kubeflow-training-operator-v1.9.0/kubeflow.org_tfjobs.yaml", True),
    ("kubeflow.org/v1", "PyTorchJob"):
        ("kubeflow-training-operator-v1.9.0/kubeflow.org_pytorchjobs.yaml", True),
    ("kubeflow.org/v1", "MPIJob"):
        ("kubeflow-training-operator-v1.9.0/kubeflow.org_mpijobs.yaml", True),
    ("kubeflow.org/v2beta1", "MPIJob"):
        ("kubeflow-mpi-operator/kubeflow.org_mpijobs.v0.8.0.yaml", True),
    ("batch.volcano.sh/v1alpha1", "Job"): ("volcano/batch.volcano.sh_jobs.yaml", True),
    ("topology.volcano.sh/v1alpha1", "HyperNode"):
        ("volcano/topology.volcano.sh_hypernodes.yaml", True),
    ("jobset.x-k8s.io/v1alpha2", "JobSet"): ("jobset/jobset.x-k8s.io_jobsets.yaml", True),
    ("kueue.x-k8s.io/v1beta2", "Topology"): ("kueue/kueue.x-k8s.io_topologies.yaml", True),
    ("kueue.x-k8s.io/v1beta2", "ResourceFlavor"):
        ("kueue/kueue.x-k8s.io_resourceflavors.yaml", True),
    ("kueue.x-k8s.io/v1beta2", "ClusterQueue"):
        ("kueue/kueue.x-k8s.io_clusterqueues.yaml", True),
    ("kueue.x-k8s.io/v1beta2", "LocalQueue"): ("kueue/kueue.x-k8s.io_localqueues.yaml", True),
}

DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
DNS1035_LABEL = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
DNS1123_SUBDOMAIN = re.compile(
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
LABEL_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
IANA_SVC_NAME = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$")

# Kinds whose metadata.name must be a DNS-1035 label (starts with a letter): Services, and
# the operators' jobs, whose names become Service and host names.
DNS1035_KINDS = {"Service", "TFJob", "PyTorchJob", "MPIJob", "Job", "JobSet"}


def strictify(schema):
    """Returns a copy of an openAPIV3Schema that rejects unknown fields."""
    if isinstance(schema, dict):
        out = {k: strictify(v) for k, v in schema.items()}
        if ("properties" in out and "additionalProperties" not in out
                and not out.get("x-kubernetes-preserve-unknown-fields")):
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [strictify(v) for v in schema]
    return schema


_cache = {}


def load_schema(root, key):
    if key in _cache:
        return _cache[key]
    rel, is_crd = SCHEMAS[key]
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        if not is_crd:
            schema = json.load(f)
        else:
            crd = yaml.load(f, Loader=LOADER)
            version = key[0].split("/")[-1]
            found = [v for v in crd["spec"]["versions"] if v["name"] == version]
            if not found:
                raise KeyError("%s has no version %s" % (rel, version))
            schema = strictify(copy.deepcopy(found[0]["schema"]["openAPIV3Schema"]))
            # The API server validates metadata itself; see check_metadata().
            schema["properties"]["metadata"] = {"type": "object"}
    validator = jsonschema.Draft4Validator(schema)
    _cache[key] = validator
    return validator


def pointer(path):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)


def check_label_key(key):
    prefix, _, name = key.rpartition("/")
    if prefix and (len(prefix) > 253 or not DNS1123_SUBDOMAIN.match(prefix)):
        return "label key prefix %r is not a DNS-1123 subdomain" % prefix
    if len(name) > 63 or not LABEL_NAME.match(name):
        return "label key name %r is not a valid label name" % name
    return None


def check_metadata(meta, kind, where, problems):
    if not isinstance(meta, dict):
        problems.append((where, "metadata must be an object"))
        return
    allowed = {"name", "namespace", "labels", "annotations", "generateName"}
    for k in meta:
        if k not in allowed:
            problems.append((where + "/" + k, "unknown metadata field"))
    name = meta.get("name")
    namespace = meta.get("namespace")
    if namespace is not None and (not isinstance(namespace, str) or len(namespace) > 63
                                  or not DNS1123_LABEL.match(namespace)):
        problems.append((where + "/namespace", "%r is not a DNS-1123 label" % (namespace,)))
    if name is not None:
        if not isinstance(name, str):
            problems.append((where + "/name", "name must be a string"))
        elif kind == "Node":
            if len(name) > 253 or not DNS1123_SUBDOMAIN.match(name):
                problems.append((where + "/name", "%r is not a DNS-1123 subdomain" % name))
        elif kind in DNS1035_KINDS:
            if len(name) > 63 or not DNS1035_LABEL.match(name):
                problems.append((where + "/name", "%r is not a DNS-1035 label" % name))
        elif len(name) > 63 or not DNS1123_LABEL.match(name):
            problems.append((where + "/name", "%r is not a DNS-1123 label" % name))
    labels = meta.get("labels") or {}
    if not isinstance(labels, dict):
        problems.append((where + "/labels", "labels must be an object"))
        labels = {}
    for k, v in labels.items():
        msg = check_label_key(str(k))
        if msg:
            problems.append((where + "/labels/" + str(k), msg))
        if not isinstance(v, str):
            problems.append((where + "/labels/" + str(k), "label value must be a string"))
        elif v and (len(v) > 63 or not LABEL_NAME.match(v)):
            problems.append((where + "/labels/" + str(k), "%r is not a valid label value" % v))
    annotations = meta.get("annotations") or {}
    for k, v in (annotations.items() if isinstance(annotations, dict) else []):
        if not isinstance(v, str):
            problems.append((where + "/annotations/" + str(k), "annotation must be a string"))


def check_pod_specs(node, path, problems):
    """Checks names inside every pod spec (anything holding a containers list)."""
    if isinstance(node, dict):
        if isinstance(node.get("containers"), list):
            for i, c in enumerate(node["containers"]):
                if not isinstance(c, dict):
                    continue
                name = c.get("name")
                where = pointer(path + ["containers", i, "name"])
                if not isinstance(name, str) or len(name) > 63 \
                        or not DNS1123_LABEL.match(name):
                    problems.append((where, "container name %r is not a DNS-1123 label" % name))
                for j, p in enumerate(c.get("ports") or []):
                    pn = p.get("name") if isinstance(p, dict) else None
                    if pn is not None and (not isinstance(pn, str) or len(pn) > 15
                                           or not IANA_SVC_NAME.match(pn)
                                           or "--" in pn or not re.search("[a-z]", pn)):
                        problems.append((pointer(path + ["containers", i, "ports", j, "name"]),
                                         "port name %r is not an IANA service name" % pn))
            for key in ("hostname", "subdomain"):
                v = node.get(key)
                if isinstance(v, str) and (len(v) > 63 or not DNS1123_LABEL.match(v)):
                    problems.append((pointer(path + [key]), "%r is not a DNS-1123 label" % v))
            v = node.get("nodeName")
            if v is not None and (not isinstance(v, str) or len(v) > 253
                                  or not DNS1123_SUBDOMAIN.match(v)):
                problems.append((pointer(path + ["nodeName"]),
                                 "%r is not a DNS-1123 subdomain (a node name)" % (v,)))
            for k, v in (node.get("nodeSelector") or {}).items():
                msg = check_label_key(str(k))
                if msg:
                    problems.append((pointer(path + ["nodeSelector", k]), msg))
                if not isinstance(v, str) or (v and (len(v) > 63 or not LABEL_NAME.match(v))):
                    problems.append((pointer(path + ["nodeSelector", k]),
                                     "%r is not a valid label value" % (v,)))
        for k, v in node.items():
            if k == "metadata" and isinstance(v, dict) and path:
                check_metadata(v, "template", pointer(path + [k]), problems)
            check_pod_specs(v, path + [k], problems)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            check_pod_specs(v, path + [i], problems)


def check_match_expressions(node, path, problems):
    """Values of node affinity match expressions (In / NotIn) must be label values."""
    if isinstance(node, dict):
        if isinstance(node.get("matchExpressions"), list):
            for i, e in enumerate(node["matchExpressions"]):
                if not isinstance(e, dict):
                    continue
                for j, v in enumerate(e.get("values") or []):
                    if not isinstance(v, str) or (v and (len(v) > 63 or not LABEL_NAME.match(v))):
                        problems.append((pointer(path + ["matchExpressions", i, "values", j]),
                                         "%r is not a valid label value" % (v,)))
        for k, v in node.items():
            check_match_expressions(v, path + [k], problems)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            check_match_expressions(v, path + [i], problems)


def validate_doc(root, doc):
    problems = []
    if not isinstance(doc, dict):
        return None, [("", "document is not a mapping")]
    key = (doc.get("apiVersion"), doc.get("kind"))
    if key not in SCHEMAS:
        return None, [("", "no schema for apiVersion %r kind %r" % key)]
    validator = load_schema(root, key)
    for err in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.path))):
        problems.append((pointer(list(err.path)), err.message))
    check_metadata(doc.get("metadata", {}), key[1], "/metadata", problems)
    check_pod_specs(doc.get("spec", {}), ["spec"], problems)
    check_match_expressions(doc.get("spec", {}), ["spec"], problems)
    if key == ("batch.volcano.sh/v1alpha1", "Job"):
        for i, t in enumerate(doc.get("spec", {}).get("tasks") or []):
            n = t.get("name") if isinstance(t, dict) else None
            if isinstance(n, str) and not DNS1123_LABEL.match(n):
                problems.append(("/spec/tasks/%d/name" % i, "%r is not a DNS-1123 label" % n))
    return key, problems


def expand_lists(docs):
    """Replaces each v1 List by its items."""
    out = []
    for d in docs:
        if isinstance(d, dict) and d.get("apiVersion") == "v1" and d.get("kind") == "List" \
                and isinstance(d.get("items"), list):
            out.extend(d["items"])
        else:
            out.append(d)
    return out


def main(argv):
    root = DEFAULT_SCHEMAS
    files = []
    per_file = False
    i = 0
    while i < len(argv):
        if argv[i] == "--schemas" and i + 1 < len(argv):
            root = argv[i + 1]
            i += 2
            continue
        if argv[i] == "--per-file":
            per_file = True
            i += 1
            continue
        if argv[i] in ("-h", "--help"):
            print(__doc__)
            return 0
        files.append(argv[i])
        i += 1
    if not files:
        print("validate_k8s.py: expected at least one FILE (see --help)", file=sys.stderr)
        return 2
    bad = 0
    docs = 0
    unusable = False
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                loaded = [d for d in yaml.load_all(f, Loader=LOADER) if d is not None]
            loaded = expand_lists(loaded)
        except (OSError, yaml.YAMLError) as e:
            print("%s: cannot read: %s" % (path, e))
            unusable = True
            continue
        file_bad = 0
        for n, doc in enumerate(loaded, 1):
            docs += 1
            key, problems = validate_doc(root, doc)
            if key is None:
                unusable = True
            label = "%s %s" % (doc.get("kind", "?") if isinstance(doc, dict) else "?",
                               (doc.get("metadata") or {}).get("name", "?")
                               if isinstance(doc, dict) else "?")
            for where, msg in problems:
                print("%s: doc %d (%s): %s: %s" % (path, n, label, where or "/", msg))
            if problems:
                bad += 1
                file_bad += 1
        if per_file:
            print("%s: %d document(s), %d invalid" % (path, len(loaded), file_bad))
    print("%d document(s) checked, %d invalid" % (docs, bad))
    if unusable:
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
