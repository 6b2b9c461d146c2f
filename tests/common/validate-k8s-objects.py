#!/usr/bin/python3
"""Checks Kubernetes objects against the API's own models (Debian's python3-kubernetes), strictly.

    validate-k8s-objects.py FILE.yaml...

Each YAML document of each file is one object. Its apiVersion/kind names a model of the client
(batch/v1 Job -> V1Job, v1 Pod -> V1Pod, ...); Kubeflow's PyTorchJob, which the client has no model for,
is checked field by field here with each replica's pod template as a V1PodTemplateSpec. The check is
stricter than the client's own deserialiser, which drops unknown keys: every key must be a field of the
model (as the API server's strict field validation does), every value of the model's type (a string is
not a number, a number not a string, a list not a map), and then the client's deserialiser must accept
the object (it enforces required fields and enumerations). Prints one line per problem as
FILE:DOC: PATH: WHY and exits 1 if there was any, 0 otherwise; 2 on a usage or reading error.
Used by tests/analysis/tst_kubernetesschema.
"""
import re
import sys

import yaml
from kubernetes import client

_API = client.ApiClient()
_LIST = re.compile(r"^list\[(.+)\]$")
_DICT = re.compile(r"^dict\(([^,]*), (.+)\)$")

# Kubeflow training-operator's PyTorchJob (kubeflow.org/v1): its fields, as the CRD states them.
_PYTORCHJOB_SPEC = {"pytorchReplicaSpecs": "replicas", "runPolicy": "runPolicy", "elasticPolicy": "object",
                    "nprocPerNode": "str"}
_REPLICA_SPEC = {"replicas": "int", "restartPolicy": "str", "template": "V1PodTemplateSpec"}
_RUN_POLICY = {"cleanPodPolicy": "str", "ttlSecondsAfterFinished": "int", "activeDeadlineSeconds": "int",
               "backoffLimit": "int", "suspend": "bool", "schedulingPolicy": "object"}


def _model(name):
    return getattr(client.models, name, None)


def check(value, kind, path, problems):
    """Appends to `problems` every way `value` is not of the client type `kind` (e.g. 'V1PodSpec',
    'list[V1Container]', 'dict(str, str)', 'int', 'str', 'bool', 'object')."""
    m = _LIST.match(kind)
    if m:
        if not isinstance(value, list):
            problems.append(f"{path}: expected a list ({kind}), got {type(value).__name__}")
            return
        for i, item in enumerate(value):
            check(item, m.group(1), f"{path}[{i}]", problems)
        return
    m = _DICT.match(kind)
    if m:
        if not isinstance(value, dict):
            problems.append(f"{path}: expected a map ({kind}), got {type(value).__name__}")
            return
        for k, v in value.items():
            check(v, m.group(2), f"{path}.{k}", problems)
        return
    if kind == "object":
        return  # IntOrString, RawExtension, quantities given as either
    if kind == "str":
        if not isinstance(value, str):
            problems.append(f"{path}: expected a string, got {type(value).__name__} {value!r}")
        return
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(f"{path}: expected an integer, got {type(value).__name__} {value!r}")
        return
    if kind == "float":
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            problems.append(f"{path}: expected a number, got {type(value).__name__} {value!r}")
        return
    if kind == "bool":
        if not isinstance(value, bool):
            problems.append(f"{path}: expected true or false, got {type(value).__name__} {value!r}")
        return
    if kind == "datetime":
        if not isinstance(value, str):
            problems.append(f"{path}: expected a time string")
        return
    if kind in ("replicas", "runPolicy"):
        fields = _REPLICA_SPEC if kind == "replicas" else _RUN_POLICY
        if kind == "replicas":
            if not isinstance(value, dict):
                problems.append(f"{path}: expected a map of replica types")
                return
            for role, spec in value.items():
                check_fields(spec, fields, f"{path}.{role}", problems)
        else:
            check_fields(value, fields, path, problems)
        return
    cls = _model(kind)
    if cls is None:
        problems.append(f"{path}: the client has no model {kind}")
        return
    if not isinstance(value, dict):
        problems.append(f"{path}: expected an object ({kind}), got {type(value).__name__}")
        return
    fields = {json: cls.openapi_types[attr] for attr, json in cls.attribute_map.items()}
    check_fields(value, fields, path, problems)


def check_fields(value, fields, path, problems):
    if not isinstance(value, dict):
        problems.append(f"{path}: expected an object, got {type(value).__name__}")
        return
    for key, v in value.items():
        if key not in fields:
            problems.append(f"{path}: unknown field '{key}'")
            continue
        if v is not None:
            check(v, fields[key], f"{path}.{key}", problems)


def model_name(obj):
    group_version = str(obj.get("apiVersion", ""))
    kind = str(obj.get("kind", ""))
    version = group_version.split("/")[-1]
    return version[:1].upper() + version[1:] + kind  # batch/v1 Job -> V1Job, v1 Service -> V1Service


def validate(obj, where, problems):
    if not isinstance(obj, dict):
        problems.append(f"{where}: not an object")
        return
    if obj.get("apiVersion") == "kubeflow.org/v1" and obj.get("kind") == "PyTorchJob":
        fields = {"apiVersion": "str", "kind": "str", "metadata": "V1ObjectMeta", "spec": "pytorchjob"}
        _PYTORCHJOB_SPEC_TYPES = dict(_PYTORCHJOB_SPEC)
        for key, v in obj.items():
            if key not in fields:
                problems.append(f"{where}: unknown field '{key}'")
            elif key == "spec":
                check_fields(v, _PYTORCHJOB_SPEC_TYPES, f"{where}.spec", problems)
            else:
                check(v, fields[key], f"{where}.{key}", problems)
        return
    name = model_name(obj)
    if _model(name) is None:
        problems.append(f"{where}: {obj.get('apiVersion')} {obj.get('kind')} is not a kind the API models know")
        return
    before = len(problems)
    check(obj, name, where, problems)
    if len(problems) == before:
        try:  # required fields, enumerations: the client's own validation
            _API._ApiClient__deserialize(obj, name)
        except (ValueError, TypeError) as e:
            problems.append(f"{where}: the {name} model refuses it: {e}")


def main(argv):
    if len(argv) < 2:
        print("usage: validate-k8s-objects.py FILE.yaml...", file=sys.stderr)
        return 2
    problems, objects = [], 0
    for path in argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                docs = list(yaml.safe_load_all(f))
        except (OSError, yaml.YAMLError) as e:
            print(f"{path}: cannot read: {e}", file=sys.stderr)
            return 2
        for i, doc in enumerate(docs):
            if doc is None:
                continue
            objects += 1
            validate(doc, f"{path}:{i + 1}", problems)
    for p in problems:
        print(p)
    print(f"{objects} object(s), {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
