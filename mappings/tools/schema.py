#!/usr/bin/env python3
"""The map format's one description, mappings/schema/maps.schema.json (and
those of the files of mappings/checks/, inline_ptx.schema.json and
warp_names.schema.json in the same folder): a
validator for the subset of JSON Schema they use (the machine has no PyPI, so
no jsonschema package), and the key tables of docs/mapping-schema.md, which
are written from the schemas' descriptions.

    python3 mappings/tools/schema.py FILE.yaml ...        # validate map files
    python3 mappings/tools/schema.py --cases CASES.json   # the loader agreement cases
    python3 mappings/tools/schema.py --schema inline_ptx|warp_names FILE.yaml | --cases CASES.json
    python3 mappings/tools/schema.py --docs docs/mapping-schema.md [--check]
"""
import argparse
import json
import os
import re
import sys

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "schema")
SCHEMA_PATH = os.path.join(SCHEMA_DIR, "maps.schema.json")
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
DOC_BEGIN, DOC_END = "<!-- schema:%s begin -->", "<!-- schema:%s end -->"


def load_schema(path=SCHEMA_PATH):
    with open(path) as f:
        return json.load(f)


def schema_path(name):
    """mappings/schema/NAME.schema.json; "maps" is the API maps' schema."""
    return os.path.join(SCHEMA_DIR, "%s.schema.json" % name)


class Validator:
    """Errors of an instance against the schema, as (path, message); a rule of
    an allOf that has a description reports that description when it fails."""

    def __init__(self, schema):
        self.root = schema

    def errors(self, value, schema=None, path=""):
        return list(self._check(value, self.root if schema is None else schema, path))

    def valid(self, value, schema, path=""):
        return not any(True for _ in self._check(value, schema, path))

    def _resolve(self, schema):
        while "$ref" in schema:
            target = self.root
            for part in schema["$ref"].lstrip("#/").split("/"):
                target = target[part]
            schema = dict(target, **{k: v for k, v in schema.items() if k != "$ref"})
        return schema

    def _check(self, value, schema, path):
        schema = self._resolve(schema)
        if not self._type_ok(value, schema.get("type")):
            yield path, "must be of type %s" % schema["type"]
            return
        if "enum" in schema and value not in schema["enum"]:
            yield path, "must be one of %s" % ", ".join(map(str, schema["enum"]))
        if "const" in schema and value != schema["const"]:
            yield path, "must be %r" % schema["const"]
        if isinstance(value, str):
            yield from self._check_string(value, schema, path)
        if isinstance(value, int) and not isinstance(value, bool) and value < schema.get("minimum", value):
            yield path, "must be at least %d" % schema["minimum"]
        if isinstance(value, dict):
            yield from self._check_object(value, schema, path)
        if isinstance(value, list) and "items" in schema:
            for i, item in enumerate(value):
                yield from self._check(item, schema["items"], "%s[%d]" % (path, i))
        yield from self._check_combined(value, schema, path)

    @staticmethod
    def _type_ok(value, wanted):
        if wanted is None:
            return True
        if wanted == "integer":
            return isinstance(value, int) and not isinstance(value, bool)
        return isinstance(value, TYPES[wanted])

    @staticmethod
    def _check_string(value, schema, path):
        if len(value) < schema.get("minLength", 0):
            yield path, "must not be empty"
        if "pattern" in schema and not re.search(schema["pattern"], value):
            yield path, "must be %s" % schema.get("title", "like " + schema["pattern"])

    def _check_object(self, value, schema, path):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                yield path, "missing '%s'" % key
        for key, item in value.items():
            where = "%s.%s" % (path, key) if path else str(key)
            if "propertyNames" in schema and not self.valid(str(key), schema["propertyNames"]):
                yield where, "is not a valid name"
            if key in props:
                yield from self._check(item, props[key], where)
            elif schema.get("additionalProperties") is False:
                yield path, "unknown key '%s'" % key
            elif isinstance(schema.get("additionalProperties"), dict):
                yield from self._check(item, schema["additionalProperties"], where)

    def _check_combined(self, value, schema, path):
        for rule in schema.get("allOf", []):
            failed = self.errors(value, rule, path)
            if failed and "description" in rule:
                yield path, rule["description"]
            else:
                yield from failed
        if "anyOf" in schema and not any(self.valid(value, s, path) for s in schema["anyOf"]):
            yield path, "matches none of its alternatives"
        if "not" in schema and self.valid(value, schema["not"], path):
            yield path, "matches a forbidden form"
        if "if" in schema and self.valid(value, schema["if"], path):
            yield from self._check(value, schema.get("then", {}), path)


def reason_id_errors(doc):
    """The check JSON Schema cannot say: each reason_id names a text of the file."""
    reasons = doc.get("reasons") if isinstance(doc.get("reasons"), dict) else {}
    for i, e in enumerate(doc.get("entries") or []):
        if isinstance(e, dict) and "reason_id" in e and e["reason_id"] not in reasons:
            yield "entries[%d]" % i, "reason_id '%s' is not one of the file's reasons" % e["reason_id"]


def resolve_reasons(doc):
    """Gives each entry with a reason_id its text as 'reason', as the loader does."""
    reasons = doc.get("reasons") or {}
    for e in doc.get("entries") or []:
        if isinstance(e, dict) and e.get("reason_id") in reasons:
            e["reason"] = reasons[e.pop("reason_id")]


def key_table(props, required):
    rows = ["| key | required | meaning |", "|---|---|---|"]
    for key, spec in props.items():
        rows.append("| `%s` | %s | %s |" % (key, "yes" if key in required else "no",
                                           spec.get("description", "")))
    return "\n".join(rows)


def entry_tables(schema, prefix=""):
    """The entry key table and the rules of a schema, by marker name."""
    entry = schema["$defs"]["entry"]
    return {prefix + "entry": key_table(entry["properties"], entry["required"]),
            prefix + "rules": "\n".join("- %s." % r["description"] for r in entry["allOf"])}


def write_docs(path, schema, check):
    """Replaces the text between the schema markers of path with the tables:
    the API maps' (file, entry, rules), the inline PTX idioms'
    (inline_ptx:file, inline_ptx:entry, inline_ptx:rules) and the warp
    names' (warp_names:file and one table per entry kind of its $defs)."""
    tables = {"file": key_table(schema["properties"], schema["required"])}
    tables.update(entry_tables(schema))
    ptx = load_schema(schema_path("inline_ptx"))
    tables["inline_ptx:file"] = key_table(ptx["properties"], ptx["required"])
    tables.update(entry_tables(ptx, "inline_ptx:"))
    names = load_schema(schema_path("warp_names"))
    tables["warp_names:file"] = key_table(names["properties"], names["required"])
    for kind, entry in names["$defs"].items():
        tables["warp_names:" + kind] = key_table(entry["properties"], entry["required"])
    with open(path) as f:
        text = f.read()
    new = text
    for name, table in tables.items():
        begin, end = DOC_BEGIN % name, DOC_END % name
        new = re.sub(re.escape(begin) + ".*?" + re.escape(end),
                     lambda _: "%s\n%s\n%s" % (begin, table, end), new, flags=re.S)
    if check:
        if new != text:
            print("%s is stale: run python3 mappings/tools/schema.py --docs %s" % (path, path))
            return 1
        return 0
    with open(path, "w") as f:
        f.write(new)
    return 0


def run_cases(path, validator):
    """Each case of the agreement file: the schema must accept or reject it as
    the case says (the C++ loader's unit test reads the same file)."""
    with open(path) as f:
        cases = json.load(f)
    failures = 0
    for case in cases:
        got = validator.errors(case["map"]) + list(reason_id_errors(case["map"]))
        if bool(got) == case["valid"]:
            failures += 1
            print("FAIL %s: expected %s, got %s" % (case["name"], "valid" if case["valid"] else
                                                   "an error", got or "no error"))
    print("%d cases, %d failures" % (len(cases), failures))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--cases")
    ap.add_argument("--docs")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--schema", default="maps",
                    help="the schema to validate with: maps (default), inline_ptx or warp_names")
    args = ap.parse_args()
    if args.docs:
        return write_docs(args.docs, load_schema(), args.check)
    validator = Validator(load_schema(schema_path(args.schema)))
    if args.cases:
        return run_cases(args.cases, validator)
    import yaml
    errors = 0
    for f in args.files:
        with open(f) as fh:
            doc = yaml.safe_load(fh)
        for where, msg in validator.errors(doc) + list(reason_id_errors(doc)):
            print("%s: %s: %s" % (f, where, msg))
            errors += 1
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
