"""Argument counts that CUDA's declarations of a mapped function take and no
HIP declaration of its HIP name does. generate.py writes each one as:

  * default_args, where the count stops before parameters that CUDA
    defaults and a HIP overload of the same shape does not
    (`cudaMalloc3DArray(&a, &desc, extent)`: HIP's flags have no default):
    their values, in HIP's spelling, are appended to such a call, up to the
    next count HIP takes. Values and handles only (flags, offsets, kinds,
    streams): a defaulted pointer is an optional output in CUDA, which HIP
    may not take as null;
  * else a form with no HIP name, `hip_by_arity: {"5": null}` (CUDA 12.3's
    edge-data graph calls), so that such a call is reported instead of
    becoming a HIP call that does not compile.

Counts come from signatures.py: every overload, from its required
parameters (before the first default argument) to all of them. A C variadic
or a parameter pack on either side is left alone: its calls are not told
apart by their count.
"""
import re


def _overloads(sigs, name):
    """Every overload of name, a probe's or not (HIP's texture and surface
    functions are templates with a non-type parameter)."""
    return sigs["functions"].get(name, []) + sigs.get("unprobeable", {}).get(name, [])


def _counts(overloads):
    """The argument counts the overloads take, or None where a count does
    not decide (a variadic, a parameter pack)."""
    counts = set()
    for o in overloads:
        if o.get("variadic") or any("..." in p for p in o["params"]):
            return None
        counts.update(range(o.get("required", len(o["params"])), len(o["params"]) + 1))
    return counts


def _templated(overload):
    """Per parameter, whether its type names one of the overload's template
    parameters (`T *`)."""
    names = overload["template"]
    return [any(re.search(r"\b%s\b" % re.escape(n), p) for n in names) for p in overload["params"]]


def _same_shape(cuda, hip, count):
    """Whether the first count parameters of both overloads are templated
    alike: surf2Dread's CUDA value form (obj, x, y, mode) and HIP's pointer
    form (T *, obj, x, y) are not the same call, whatever their counts."""
    return _templated(cuda)[:count] == _templated(hip)[:count]


_INTEGERS = {"int", "unsigned int", "unsigned", "long", "unsigned long", "long long",
             "unsigned long long", "size_t", "short", "unsigned short"}


def _kind(param, hip_spelling):
    """What a parameter takes, for telling whether an appended value means
    the same to HIP: any integer is one kind; another type is its HIP name
    (CUDA's flags, an unsigned int, and HIP's; cudaStream_t and hipStream_t),
    so an enumerator never lands in HIP's int of another meaning
    (surfCubemapLayeredwrite's boundary mode against HIP's layer)."""
    t = re.sub(r"\b(const|volatile|enum|struct)\b", "", param).strip()
    return "integer" if t in _INTEGERS else (hip_spelling(t) or t)


def _defaults_up_to(overloads, hip_overloads, count, target, hip_spelling):
    """HIP-spelled defaults of parameters count..target-1 from one CUDA
    overload that takes count arguments and defaults all of them, where a
    HIP overload of the same shape takes target with parameters of the same
    kinds there; None when none does."""
    for o in overloads:
        defaults = o.get("defaults", {})
        if not o.get("required", len(o["params"])) <= count < target <= len(o["params"]):
            continue
        if not any(h.get("required", len(h["params"])) <= target <= len(h["params"]) and
                   _same_shape(o, h, target) and
                   all(_kind(o["params"][i], hip_spelling) == _kind(h["params"][i], hip_spelling)
                       for i in range(count, target))
                   for h in hip_overloads):
            continue
        # A pointer written as one is an optional output in CUDA, which HIP
        # may not accept null for: only values and handles are filled in.
        values = [None if o["params"][i].endswith("*") else hip_spelling(defaults.get(str(i)))
                  for i in range(count, target)]
        if all(values):
            return {str(i): v for i, v in zip(range(count, target), values)}
    return None


def add_call_forms(entries, cuda_sigs, hip_sigs, hip_spelling):
    """Adds default_args and hip_by_arity forms with no HIP name to one
    family's supported function entries. hip_sigs: signatures of each HIP
    tree (a count any of them takes is left to hip_since and the target);
    hip_spelling(text): a default's HIP spelling, None where it has none."""
    for e in entries.values():
        # An unsupported entry with a hip_since is translated from that HIP on.
        if e["kind"] != "function" or not e.get("hip") or e.get("shim") or \
                (e.get("status", "supported") == "unsupported" and not e.get("hip_since")):
            continue
        cuda_overloads = _overloads(cuda_sigs, e["cuda"])
        cuda = _counts(cuda_overloads)
        hip_overloads = [o for sigs in hip_sigs for o in _overloads(sigs, e["hip"])]
        hip = _counts(hip_overloads) if hip_overloads else None
        if not cuda or hip is None:
            continue
        forms = dict(e.get("hip_by_arity") or {})
        defaults = {}
        for count in sorted(cuda - hip):
            if str(count) in forms:
                continue
            above = [n for n in hip if n > count]
            filled = above and _defaults_up_to(cuda_overloads, hip_overloads, count, min(above),
                                               hip_spelling)
            if filled:
                defaults.update(filled)
            else:
                forms[str(count)] = None
        if forms:
            e["hip_by_arity"] = forms
        if defaults:
            e["default_args"] = defaults
