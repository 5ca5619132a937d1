#!/usr/bin/env python3
"""Keep every function of the tool to one screen.

  function_lengths.py [--limit 60] [--allow FILE] [--list] PATH...

Lists the function definitions in the C++ files under PATH (*.cpp, *.h) whose
body is longer than --limit lines: the lines strictly between the line of the
opening brace and the line of the closing one, blank lines and comments
included, lambdas counted in the function that holds them. 60 lines is what a
reader sees of a function on one screen, with its signature.

A function over the limit fails the check unless the allowlist names it. The
list only shrinks: an entry whose function grew past the length it records,
or that is now within the limit (or gone), fails too, so that the entry is
lowered or removed. Allowlist lines ('#' starts a comment):

  PATH  NAME  LINES  why it is still long

PATH relative to the repository root, NAME as this script prints it (the
qualified name written in the definition; a lambda held by a variable is
named by the variable), LINES the body length it may not exceed.

The scan is lexical, not a parse: comments, string and character literals
(raw strings too) and preprocessor lines are blanked first; then a '{' at
namespace or class scope opens a function body when the text before it ends
like a declarator: ')' with optional cv/ref/noexcept/override/final/-> type,
or a constructor's member initializer list. Exit status: 0 clean, 1 findings.
"""
import argparse, os, re, sys

LIMIT = 60
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCOPE_KEYWORD = re.compile(r"^(?:inline\s+)?(?:(?:namespace|class|struct|union|enum)\b|extern$)")
TEMPLATE_PREFIX = re.compile(r"^template\s*<")
# What may stand between a parameter list's ')' and the body's '{'.
DECLARATOR_END = re.compile(
    r"\)\s*(?:(?:const|volatile|mutable|noexcept(?:\s*\([^()]*\))?|override|final|&&|&|try)\s*)*"
    r"(?:->\s*[\w:<>,\s*&]+?)?\s*$")


def blank_non_code(text):
    """Text with comments, literals and preprocessor lines replaced by spaces
    (newlines kept, so offsets and line numbers stay those of the file)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            i += 1
            at_line_start = True
            continue
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":
            end = i
            while end < n and text[end] != "\n":
                end = text.find("\n", end)
                if end < 0:
                    end = n
                elif text[end - 1] == "\\":
                    end += 1
            out.append(blank(text[i:end]))
            i = end
            continue
        at_line_start = False
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c == "R" and text.startswith('"', i + 1) and not is_identifier_char(text, i - 1):
            delim_end = text.find("(", i + 2)
            closing = ")" + text[i + 2:delim_end] + '"'
            end = text.find(closing, delim_end)
            end = n if end < 0 else end + len(closing)
        elif c in "\"'" and not (c == "'" and is_digit_separator(text, i)):
            end = literal_end(text, i)
        else:
            out.append(c)
            i += 1
            continue
        out.append(blank(text[i:end]))
        i = end
    return "".join(out)


def blank(span):
    return re.sub(r"[^\n]", " ", span)


def is_identifier_char(text, i):
    return i >= 0 and (text[i].isalnum() or text[i] == "_")


def is_digit_separator(text, i):
    # 1'000'000: a quote between two digits is no character literal.
    return i > 0 and text[i - 1].isalnum() and i + 1 < len(text) and text[i + 1].isalnum()


def literal_end(text, start):
    quote = text[start]
    i = start + 1
    while i < len(text) and text[i] != quote and text[i] != "\n":
        i += 2 if text[i] == "\\" else 1
    return i + 1


def matching_brace(code, open_at):
    depth = 0
    for i in range(open_at, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(code) - 1


def strip_template_prefix(header):
    while TEMPLATE_PREFIX.match(header):
        depth, i = 0, header.index("<")
        for i in range(i, len(header)):
            depth += {"<": 1, ">": -1}.get(header[i], 0)
            if depth == 0:
                break
        header = header[i + 1:].lstrip()
    return header


def is_function_body(header):
    """Whether '{' after HEADER (the code since the last ';' or scope brace,
    whitespace-collapsed) opens a function body."""
    if "(" not in header:
        return False
    if DECLARATOR_END.search(header):
        return True
    # Foo::Foo(int a) : x(a), y{b} {  -- after a member initializer list.
    return header.endswith("}") and re.search(r"\)\s*(?:noexcept\s*)?:(?!:)", header) is not None


def function_name(header):
    lambda_var = re.match(r"^(?:[\w:<>,*&\s]+\s)?([\w:]+)\s*=\s*\[", header)
    if lambda_var:
        return lambda_var.group(1)
    match = re.search(r"((?:[\w~]+::)*(?:operator\s*(?:\(\)|[^\s(]+)|~?\w+))\s*\(", header)
    return match.group(1).replace(" ", "") if match else header[:40]


def functions(code):
    """(name, first body line, body lines) of every function defined in CODE."""
    found = []
    header_start = 0
    i = 0
    while i < len(code):
        c = code[i]
        if c == ";":
            header_start = i + 1
        elif c == "}":
            header_start = i + 1
        elif c == "{":
            header = " ".join(code[header_start:i].split())
            header = strip_template_prefix(header)
            if SCOPE_KEYWORD.match(header):
                header_start = i + 1
            else:
                close = matching_brace(code, i)
                if is_function_body(header):
                    open_line = code.count("\n", 0, i) + 1
                    close_line = open_line + code.count("\n", i, close)
                    found.append((function_name(header), open_line, max(0, close_line - open_line - 1)))
                    header_start = close + 1
                i = close  # an initializer: its braces stay part of the header
        i += 1
    return found


def sources(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                if name.endswith((".cpp", ".h")):
                    yield os.path.join(folder, name)


def read_allowlist(path):
    entries = {}
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split(None, 3)
            if len(fields) < 4 or not fields[2].isdigit():
                sys.exit(f"{path}:{number}: expected 'PATH NAME LINES why', got: {raw.rstrip()}")
            entries[(fields[0], fields[1])] = int(fields[2])
    return entries


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("--allow", help="allowlist file")
    parser.add_argument("--list", action="store_true", help="print every function over the limit")
    parser.add_argument("--root", default=ROOT, help="what allowlist paths are relative to")
    args = parser.parse_args()

    allowed = read_allowlist(args.allow) if args.allow else {}
    seen = {}
    problems = []
    for path in sources(args.paths):
        relative = os.path.relpath(path, args.root)
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            code = blank_non_code(f.read())
        for name, line, length in functions(code):
            if length <= args.limit:
                continue
            key = (relative, name)
            seen[key] = max(seen.get(key, 0), length)
            if args.list:
                print(f"{relative}:{line}: {name}: {length} lines")
            if key not in allowed:
                problems.append(f"{relative}:{line}: {name} has {length} lines of body "
                                f"(limit {args.limit}): split it into named pieces")
            elif length > allowed[key]:
                problems.append(f"{relative}:{line}: {name} grew to {length} lines "
                                f"(the allowlist lets it keep {allowed[key]})")
    for key, allowed_length in sorted(allowed.items()):
        if key not in seen:
            problems.append(f"{args.allow}: {key[0]} {key[1]} is within the limit now "
                            "(or gone): remove its entry")
        elif seen[key] < allowed_length:
            problems.append(f"{args.allow}: {key[0]} {key[1]} has {seen[key]} lines now: "
                            f"lower its entry from {allowed_length}")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
