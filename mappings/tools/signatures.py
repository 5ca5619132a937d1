"""Declarations with the shapes a use of them needs: the parameter types of
every function overload, the enum type of every enumerator, the typedef that
names an enum, the class templates, and the header that defines each type.

Read from one clang AST dump of a side's translation unit (families.cuda_tu,
families.hip_tu), cached as hdrscan caches its scans.  verify_use.py writes
calls and declarations in CUDA's own usage from CUDA's; generate.py maps an
enum type to the HIP enum its enumerators belong to from both sides'.
"""
import re

import families as F
import hdrscan

_NODE = re.compile(r"^([| `]*)[|`]-(\w+) 0x[0-9a-f]+ (.*)$")
_QUOTED = re.compile(r"'([^']*)'")
_BASE = re.compile(r"^([| `]*)[|`]-(?:public|protected|private) (?:virtual )?'([^']*)'")
_NAME_BEFORE_TYPE = re.compile(r"(?:^|\s)([A-Za-z_]\w*) '")


class _Walk:
    """State of one pass over the dump: the enclosing scopes by depth."""

    def __init__(self, roots):
        self.roots, self.file = roots, None
        self.scopes = []        # (depth, node, qualifier prefix)
        self.template = None    # (depth, [type parameter names], probeable)
        self.function = None    # (depth, overload being filled)
        self.default = None     # (depth, index) of a parameter whose default is being read
        self.record = None      # (depth, fields of the struct being defined)
        self.defined = set()    # types whose definition was seen
        self.result = {"functions": {}, "enumerators": {}, "enum_typedefs": {}, "type_templates": [],
                       "type_headers": {}, "records": {}, "bases": {}, "typedefs": {},
                       "unprobeable": {}}

    def qualifier(self):
        return "".join(q for _, _, q in self.scopes)

    def in_scope(self, depth):
        """Whether a node at depth sits directly in a namespace or extern "C"
        block (or in an enum, for enumerators)."""
        while self.scopes and self.scopes[-1][0] >= depth:
            self.scopes.pop()
        return not self.scopes or self.scopes[-1][0] == depth - 1


def _name(rest):
    m = _NAME_BEFORE_TYPE.search(rest)
    return m.group(1) if m else None


def _header(walk):
    return hdrscan._rel(walk.file, walk.roots) if walk.file else None


def _on_function(walk, depth, rest):
    name, rel = _name(rest), _header(walk)
    if not name or not rel:
        return
    tparams, probeable = [], True
    if walk.template and walk.template[0] == depth - 1:
        tparams, probeable = walk.template[1], walk.template[2]
    # "required": the parameters before the first default argument, where
    # one has a default; "variadic": a C `...` takes any further arguments.
    overload = {"params": [], "template": tparams, "header": rel}
    if re.search(r"\.\.\.\)'", rest):
        overload["variadic"] = True
    walk.function = (depth, overload)
    walk.result["functions" if probeable else "unprobeable"].setdefault(
        walk.qualifier() + name, []).append(overload)


# A default argument is kept where it is one literal or enumerator, through
# implicit conversions; anything else (a call, arithmetic) is not.
_DEFAULT_PASSES = ("ImplicitCastExpr", "ParenExpr", "ConstantExpr", "CXXDefaultArgExpr")


def _default_value(node, rest):
    if node in ("IntegerLiteral", "CXXBoolLiteralExpr", "FloatingLiteral"):
        return rest.split()[-1]
    if node == "CXXNullPtrLiteralExpr":
        return "nullptr"
    if node == "DeclRefExpr" and " EnumConstant " in rest:
        return _QUOTED.findall(rest.split(" EnumConstant ", 1)[1])[0]
    return None


def _on_default(walk, depth, node, rest):
    """Reads the default argument of the parameter walk.default names."""
    param_depth, index = walk.default
    if depth <= param_depth:
        walk.default = None
        return False
    if node in _DEFAULT_PASSES:
        return True
    value = _default_value(node, rest)
    if value is not None:
        # keyed as JSON keys are, so that a cached scan reads the same
        walk.function[1].setdefault("defaults", {})[str(index)] = value
    walk.default = None
    return True


def _on_node(walk, depth, node, rest):
    if walk.default and _on_default(walk, depth, node, rest):
        return
    if walk.function and depth <= walk.function[0]:
        walk.function = None
    if walk.template and depth <= walk.template[0]:
        walk.template = None
    if walk.record and depth <= walk.record[0]:
        walk.record = None
    if walk.function and depth == walk.function[0] + 1 and node == "ParmVarDecl":
        overload = walk.function[1]
        if rest.endswith(" cinit"):
            overload.setdefault("required", len(overload["params"]))
            walk.default = (depth, len(overload["params"]))
        overload["params"].append(_QUOTED.search(rest).group(1))
        return
    if walk.record and depth == walk.record[0] + 1 and node in ("FieldDecl", "IndirectFieldDecl") \
            and _name(rest):
        walk.record[1].append(_name(rest))   # an anonymous union's members are indirect
        return
    if walk.template and depth == walk.template[0] + 1:
        if node == "TemplateTypeParmDecl":
            walk.template[1].append(rest.split()[-1])
        elif node in ("NonTypeTemplateParmDecl", "TemplateTemplateParmDecl"):
            walk.template[2] = False
    if not walk.in_scope(depth):
        return
    if node == "NamespaceDecl":
        ns = rest.split()[-1] if not rest.endswith(" inline") else ""
        walk.scopes.append((depth, node, "" if re.match(r"__v\d+$|\W", ns) else ns + "::"))
    elif node in ("LinkageSpecDecl", "EnumDecl"):
        walk.scopes.append((depth, node, ""))
        if node == "EnumDecl":
            _on_type(walk, rest.split(" : ")[0].split()[-1], True)
    elif node == "FunctionTemplateDecl":
        walk.template = [depth, [], True]
        walk.scopes.append((depth, node, ""))
    elif node == "FunctionDecl":
        _on_function(walk, depth, rest)
    elif node == "EnumConstantDecl":
        walk.result["enumerators"][walk.qualifier() + (_name(rest) or "")] = {
            "enum": _QUOTED.search(rest).group(1).replace("enum ", ""), "header": _header(walk)}
    elif node in ("ClassTemplateDecl", "TypeAliasTemplateDecl"):
        walk.result["type_templates"].append(walk.qualifier() + rest.split()[-1])
    elif node in ("TypedefDecl", "TypeAliasDecl"):
        _on_type(walk, _name(rest))
        walk.result["typedefs"].setdefault(walk.qualifier() + (_name(rest) or ""),
                                           _QUOTED.search(rest).group(1))
        if _QUOTED.search(rest).group(1).startswith("enum "):
            walk.result["enum_typedefs"].setdefault(
                _QUOTED.search(rest).group(1)[5:], []).append(_name(rest))
    elif node in ("CXXRecordDecl", "RecordDecl"):
        words = rest.split()
        defined = words[-1] == "definition"
        _on_type(walk, words[-2] if defined else words[-1], defined)
        if defined and words[-3] in ("struct", "union", "class"):
            name = walk.qualifier() + words[-2]
            walk.record = (depth, walk.result["records"].setdefault(name, []), name)


def _on_type(walk, name, defined=True):
    """Records the header that defines a named type (else its first
    declaration): a forward declaration may sit in a header that includes
    nothing a use needs."""
    if name and re.match(r"[A-Za-z_]\w*$", name) and name not in ("struct", "union", "class"):
        headers = walk.result["type_headers"]
        if defined and walk.qualifier() + name not in walk.defined:
            walk.defined.add(walk.qualifier() + name)
            headers[walk.qualifier() + name] = _header(walk)
        else:
            headers.setdefault(walk.qualifier() + name, _header(walk))


def _parse(out, roots):
    walk = _Walk(roots)
    for line in out.splitlines():
        for m in hdrscan._LOC.finditer(line):
            if not m.group(1).startswith("<"):
                walk.file = m.group(1)
        m = _NODE.match(line)
        if m:
            _on_node(walk, (len(m.group(1)) + 2) // 2, m.group(2), m.group(3))
            continue
        m = _BASE.match(line)
        if m and walk.record and (len(m.group(1)) + 2) // 2 == walk.record[0] + 1:
            walk.result["bases"].setdefault(walk.record[2], []).append(m.group(2))
    walk.result["type_templates"] = sorted(set(walk.result["type_templates"]))
    for name, overloads in walk.result["functions"].items():
        # a definition repeats its declaration (.hpp after .h): keep the first
        unique = {}
        for o in overloads:
            unique.setdefault((tuple(o["params"]), tuple(o["template"])), o)
        walk.result["functions"][name] = list(unique.values())
    return walk.result


def _signatures(side, tree, headers):
    flags, roots = hdrscan._side(side, tree)
    src = "".join("#include <%s>\n" % h for h in headers)
    args = flags + ["-ferror-limit=0", "-fsyntax-only", "-fno-color-diagnostics",
                    "-Xclang", "-ast-dump"]
    return hdrscan._cached_scan("signatures+records7", args, src, roots, lambda out: _parse(out, roots))


def hip_signatures(tree):
    """cuda_signatures' shapes of a HIP tree (hdrscan.HipTree)."""
    return _signatures("hip", tree, F.hip_tu(tree))


def cuda_signatures():
    """{"functions": {name: [overload]}, "enumerators": {name: {"enum": its
    type, "header": declaring header}}, "enum_typedefs": {enum: [typedef
    names]}, "type_templates": [names], "type_headers": {type: declaring
    header}, "records": {struct: [its named fields]}, "bases": {struct: [its
    base types]}, "typedefs": {name: the type it names}, "unprobeable": {name:
    [overload]} (templates with a non-type parameter, which a probe cannot
    instantiate: counted for their argument counts only)} of the CUDA translation unit; an overload is {"params": [types],
    "template": [type parameter names], "header": declaring header}, with
    "required" (the parameters before the first default argument) where one
    has a default, "defaults" ({"index": the literal or enumerator}) for the
    defaults that are one, and "variadic" where it ends in `...`."""
    return _signatures("cuda", None, F.cuda_tu())
