#!/usr/bin/env python3
"""Mine wave64 truth lines from the CUDA and hand-written HIP twins of a corpus.

  mine_truth.py [--corpus /work/shared/corpus/hecbench] [--out dev-truth.json]

For every benchmark NAME of the corpus MANIFEST.json, each CUDA source of
NAME-cuda/ is paired with its HIP twin in NAME-hip/ (same relative path, else
same stem). The HIP side is normalised (hip -> cuda names, hipLaunchKernelGGL
-> <<<...>>>, include names, whitespace, comments) and the two are aligned line
by line with difflib. A CUDA line is kept when the port changed it and the
token-level difference involves a warp-size token; a rule then gives it a class
and a tier (core / extended) and says why. See README.md.
"""
import argparse, collections, difflib, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = "/work/shared/corpus/hecbench"
DEFAULT_OUT = os.path.join(HERE, "dev-truth.json")
DEFAULT_REVIEW = os.path.join(HERE, "review.json")
SOURCE_EXTS = {".cu", ".cpp", ".cc", ".cxx", ".c"}
HEADER_EXTS = {".cuh", ".h", ".hpp", ".inc"}
SNIPPET_CHARS = 120
CLASSES = ["definition", "lane-math", "mask", "ballot-width", "shuffle-offset",
           "warp-count", "syncwarp", "inline-ptx", "host", "other"]

TOKEN = re.compile(r"0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|[A-Za-z_]\w*"
                   r"|<<<|>>>|<<=|>>=|<<|>>|::|\S")
MASK32 = re.compile(r"^(0[xX][fF]{8}[uUlL]*|~0[uU]?)$")
MASK64 = re.compile(r"^0[xX][fF]{16}[uUlL]*$")
HEX = re.compile(r"^0[xX][0-9a-fA-F]+[uUlL]*$")
WARPISH = re.compile(r"warp|lane|wave|simd", re.I)
WARP_SIZE_NAME = re.compile(r"warp_?size|wave_?size|wavefront_?size|threads_?per_?warp|"
                            r"^k?WS$|^WARP$", re.I)
THREAD_INDEX = re.compile(r"threadIdx|\w*tid\w*|\w*lane\w*|\w*warp\w*|\bwid\b|\w*idx\b|"
                          r"\bthread\w*|^\s*[it]\s*$", re.I)
BLOCK_SIZE = re.compile(r"blockDim|\bBLOCK\w*|\w*THREADS\w*|\bTPB\b|[Bb]lock_?[Ss]ize\w*|"
                        r"\bn_?threads\b|\bnum_?threads\b|threads_?per_?block|\bBS\b")
SYNC_CALL = re.compile(r"\b(__(?:shfl\w*|ballot|any|all|uni|match_\w+|reduce_\w+)_sync)\s*\("
                       r"\s*(\w*)")
SHFL = re.compile(r"shfl|shuffle", re.I)
BALLOTISH = re.compile(r"ballot|activemask|vote|match_any|match_all|mask|__popc|__ffs|__clz",
                       re.I)
WIDE_TYPES = {"long", "uint64_t", "int64_t", "lane_mask_t"}
LONG_ONE = {"1ull", "1ULL", "1ul", "1UL", "1l", "1L", "1llu", "1LLU"}
ASM = re.compile(r"\basm\b|__asm__")
PTX_WARP = re.compile(r"%%?(laneid|lanemask\w*|warpid|nwarpid)|shfl|vote|bar\.warp|"
                      r"activemask|match\.|redux", re.I)
HOST = re.compile(r"<<<|\bdim3\b|cudaDeviceProp|\bprop\w*\.|deviceProp|cudaDevAttr|"
                  r"printf|std::cout")
LAUNCH = re.compile(r"<<<|\bdim3\b|(blocks?|grids?|threads?)\w*\s*[(=]", re.I)
DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s+(.+)$")
DECLARATION = re.compile(r"^\s*(?:[A-Za-z_][\w:<>]*\s+)+?\**([A-Za-z_]\w*)\s*(?:=|\{)\s*"
                         r"([^;{}]*?)\s*\}?\s*[;,]?\s*$")
CONSTANT_TOKEN = re.compile(r"^(\d\w*|0[xX]\w+|[()~+\-*/<>|&]|<<|>>|unsigned|signed|int|long|"
                            r"short|char|size_t|u?int\d+_t|uint)$")
OFFSET_NAME = re.compile(r"offset|delta|mask", re.I)
LOOP_STEP = re.compile(r"\bfor\s*\(.*(>>=\s*1|/=\s*2|\*=\s*2|<<=\s*1|=\s*\w+\s*(/\s*2|>>\s*1))")
LAUNCH_ARGS = re.compile(r"<<<(.*?)>>>")
LAUNCH_MACRO = re.compile(r"\bhipLaunchKernelGGL\s*\(")
COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"'
                               r"|'(?:\\.|[^'\\\n])*'", re.S)
DIM3_WRAP = re.compile(r"^dim3\((.*)\)$")


# ---------------------------------------------------------------- pairing

def source_files(root):
    for dirpath, _, names in os.walk(root):
        for name in sorted(names):
            ext = os.path.splitext(name)[1]
            if ext in SOURCE_EXTS or ext in HEADER_EXTS:
                yield os.path.relpath(os.path.join(dirpath, name), root)


def kind_of(path):
    return "header" if os.path.splitext(path)[1] in HEADER_EXTS else "source"


def hip_twin(rel, hip_files):
    """The HIP file for the CUDA file REL: same path, else same stem and kind."""
    if rel in hip_files:
        return rel
    stem = os.path.splitext(rel)[0]
    same_stem = sorted(h for h in hip_files if os.path.splitext(h)[0] == stem)
    same_kind = [h for h in same_stem if kind_of(h) == kind_of(rel)]
    return same_kind[0] if same_kind else None


def file_pairs(corpus, name):
    cuda_dir = os.path.join(corpus, name + "-cuda")
    hip_dir = os.path.join(corpus, name + "-hip")
    if not os.path.isdir(cuda_dir) or not os.path.isdir(hip_dir):
        return []
    hip_files = set(source_files(hip_dir))
    pairs = []
    for rel in sorted(source_files(cuda_dir)):
        twin = hip_twin(rel, hip_files)
        if twin:
            pairs.append((rel, os.path.join(cuda_dir, rel), os.path.join(hip_dir, twin)))
    return pairs


# ---------------------------------------------------------------- normalising

def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def strip_comments(text):
    """Blank out // and /* */ comments, keeping line breaks and string literals."""
    out, i = [], 0
    for m in COMMENT_OR_STRING.finditer(text):
        out.append(text[i:m.start()])
        piece = m.group(0)
        out.append(piece if piece[0] in "\"'" else "\n" * piece.count("\n"))
        i = m.end()
    out.append(text[i:])
    return "".join(out)


def split_top_level(text, limit):
    """Split TEXT at its first LIMIT top-level commas."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0 and len(parts) < limit:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def closing_paren(text, open_index):
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def expand_launch_macros(text):
    """hipLaunchKernelGGL(k, g, b, s, st, args) -> k<<<g, b, s, st>>>(args)."""
    out, i = [], 0
    for m in LAUNCH_MACRO.finditer(text):
        if m.start() < i:
            continue
        end = closing_paren(text, m.end() - 1)
        parts = split_top_level(text[m.end():end], 5) if end > 0 else []
        if len(parts) < 5:
            continue
        kernel = re.sub(r"^\s*HIP_KERNEL_NAME\((.*)\)\s*$", r"\1", parts[0], flags=re.S).strip()
        args = parts[5] if len(parts) > 5 else ""
        out.append(text[i:m.start()])
        out.append("%s<<<%s>>>(%s)" % (kernel, ",".join(parts[1:5]), args.lstrip(" ")))
        i = end + 1
    out.append(text[i:])
    return "".join(out)


HIP_RENAMES = [
    (re.compile(r"#\s*include\s*[<\"]hip/hip_runtime(_api)?\.h[>\"]"), "#include <cuda_runtime.h>"),
    (re.compile(r"#\s*include\s*[<\"]hipcub/hipcub\.hpp[>\"]"), "#include <cub/cub.cuh>"),
    (re.compile(r"\bhip(cub|blas|rand|fft|sparse|solver)\b"), r"cu\1"),
    (re.compile(r"\bhip(?=[A-Z_])"), "cuda"),
    (re.compile(r"\bHIP(?=[A-Z_])"), "CUDA"),
    (re.compile(r"\bhip(?=/)"), "cuda"),
]


def normalize_hip(text):
    text = expand_launch_macros(text)
    for pattern, replacement in HIP_RENAMES:
        text = pattern.sub(replacement, text)
    return text


def launch_key(match):
    args = [a.strip() for a in split_top_level(match.group(1), 3)]
    args = [DIM3_WRAP.sub(r"\1", DIM3_WRAP.sub(r"\1", a)) for a in args]  # dim3(dim3(g))
    while len(args) > 2 and args[-1] == "0":
        args.pop()
    return "<<<" + ",".join(args) + ">>>"


def line_key(line):
    """What two lines must share to count as unchanged."""
    return re.sub(r"\s+", "", LAUNCH_ARGS.sub(launch_key, line))


# ---------------------------------------------------------------- aligning

def tokens(line):
    return TOKEN.findall(line or "")


def best_partner(line, candidates):
    scores = [difflib.SequenceMatcher(None, line, c).ratio() for c in candidates]
    best = max(range(len(candidates)), key=scores.__getitem__)
    return candidates[best] if scores[best] >= 0.5 else None


def changed_lines(cuda_code, hip_code):
    """Yield (cuda line index, hip line or None) for each CUDA line the port changed."""
    cuda_keys = [line_key(l) for l in cuda_code]
    hip_keys = [line_key(l) for l in hip_code]
    matcher = difflib.SequenceMatcher(None, cuda_keys, hip_keys, autojunk=False)
    for op, c1, c2, h1, h2 in matcher.get_opcodes():
        if op == "equal":
            continue
        hip_block = [l for l in hip_code[h1:h2] if l.strip()]
        for index in range(c1, c2):
            if not cuda_code[index].strip():
                continue
            if op == "replace" and (c2 - c1) == (h2 - h1) and hip_code[h1 + index - c1].strip():
                yield index, hip_code[h1 + index - c1]
            else:
                yield index, best_partner(cuda_code[index], hip_block) if hip_block else None


def token_change(cuda_line, hip_line):
    """Tokens removed from the CUDA line and added by the HIP line."""
    old, new = tokens(cuda_line), tokens(hip_line)
    removed, added = [], []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for op, o1, o2, n1, n2 in matcher.get_opcodes():
        if op != "equal":
            removed += old[o1:o2]
            added += new[n1:n2]
    return removed, added


# ---------------------------------------------------------------- classifying

class Change:
    """One changed CUDA line and its HIP counterpart (None: deleted by the port)."""

    def __init__(self, cuda, hip, full_masks=frozenset()):
        self.cuda, self.hip, self.deleted = cuda, hip or "", hip is None
        self.removed, self.added = token_change(cuda, self.hip)
        self.cuda_tokens = tokens(cuda)
        self.full_masks = full_masks

    def has(self, pattern):
        return bool(pattern.search(self.cuda))

    def removed_any(self, names):
        return any(t in names for t in self.removed)

    def added_any(self, names):
        return any(t in names for t in self.added)

    def removed_number(self, *values):
        return any(number_value(t) in values for t in self.removed)

    def added_number(self, *values):
        return any(number_value(t) in values for t in self.added)

    def added_warp_name(self):
        return any(WARPISH.search(t) for t in self.added)

    def added_warp_size(self):
        return self.added_number(64) or self.added_warp_name()

    def contexts(self, value, operators):
        """For each removed VALUE written after one of OPERATORS: the tokens before it."""
        toks, found = self.cuda_tokens, []
        for i in range(1, len(toks)):
            if number_value(toks[i]) == value and toks[i] in self.removed \
                    and toks[i - 1] in operators:
                found.append(" ".join(toks[max(0, i - 5):i - 1]))
        return found


def number_value(token):
    if not re.match(r"^\d|^0[xX]", token):
        return None
    digits = token.rstrip("uUlL")
    return int(digits, 16) if HEX.match(token) else int(digits)


def definition(line):
    """(name, value) of an object-like #define or a declaration with a constant value."""
    m = DEFINE.match(line) or DECLARATION.match(line)
    if not m:
        return None
    value = m.group(2).strip()
    constant = value and all(CONSTANT_TOKEN.match(t) for t in tokens(value))
    return (m.group(1), value) if constant else None


def full_mask_names(lines):
    """Names the file defines as a full 32-bit mask (#define FULL 0xffffffff, ...)."""
    names = set()
    for line in lines:
        found = definition(line)
        if found and any(MASK32.match(t) for t in tokens(found[1])):
            names.add(found[0])
    return frozenset(names)


def rule_inline_ptx(ch):
    if not ch.has(ASM):
        return None
    if ch.has(PTX_WARP):
        return "inline-ptx", "core", "inline PTX reading lane / warp state replaced"
    return "inline-ptx", "extended", "inline PTX replaced (not warp specific)"


def rule_definition(ch):
    found = definition(ch.cuda)
    if not found:
        return None
    name = found[0]
    if any(MASK32.match(t) for t in ch.removed):
        return "definition", "core", "32-bit full mask %s defined" % name
    if not ch.removed_number(32, 31, 16, 5):
        return None
    if WARP_SIZE_NAME.search(name):
        return "definition", "core", "warp size %s defined as 32" % name
    if WARPISH.search(name):
        return "definition", "core", "warp-derived constant %s defined" % name
    if ch.added_warp_size():
        return "definition", "extended", "constant %s 32 -> 64 / warp size (no warp name)" % name
    return None


def rule_syncwarp(ch):
    if "__syncwarp" not in ch.removed:
        return None
    if re.search(r"__syncwarp\s*\(\s*(?!0[xX][fF]{8}\w*\s*\))[^)\s]", ch.cuda):
        return "syncwarp", "core", "__syncwarp with a partial / computed mask changed"
    return "syncwarp", "extended", "__syncwarp removed or replaced (API gap)"


def rule_ballot_width(ch):
    if ch.removed_any({"__popc", "__ffs", "__clz"}):
        if ch.added_any({"__popcll", "__ffsll", "__clzll"}):
            tier = "core" if ch.has(BALLOTISH) else "extended"
            return "ballot-width", tier, "32-bit bit count -> __popcll / __ffsll"
        if ch.deleted:
            return "ballot-width", "extended", "32-bit bit count of a ballot removed"
    if ch.added_any(WIDE_TYPES) and ch.has(BALLOTISH):
        return "ballot-width", "core", "ballot / mask variable widened to 64 bits"
    if ch.removed_any({"1", "1u", "1U"}) and ch.added_any(LONG_ONE) and "<<" in ch.cuda:
        return "ballot-width", "core", "32-bit lane bit (1u << lane) widened"
    return None


def rule_mask(ch):
    literals = [t for t in ch.removed if MASK32.match(t)]
    if literals and any(MASK64.match(t) for t in ch.added):
        return "mask", "core", "32-bit mask literal widened to 64 bits"
    if literals:
        return "mask", "core", "32-bit full mask literal dropped with the _sync call"
    dropped = [arg for name, arg in SYNC_CALL.findall(ch.cuda) if name in ch.removed]
    if not dropped:
        return None
    if any(arg in ch.full_masks for arg in dropped):
        return "mask", "core", "full 32-bit mask macro / variable dropped with the _sync call"
    if any(HEX.match(arg) for arg in dropped):
        return "mask", "core", "partial mask constant dropped with the _sync call"
    return "mask", "extended", "computed mask dropped with the _sync call"


def rule_shuffle_offset(ch):
    shuffle = ch.has(SHFL)
    if not shuffle and not ch.has(LOOP_STEP):
        return None
    if ch.removed_number(16) and (ch.added_number(32) or ch.added_warp_size()):
        offsetish = shuffle or ch.has(WARPISH) or ch.has(OFFSET_NAME)
        return "shuffle-offset", "core" if offsetish else "extended", "shuffle offset 16 -> 32"
    if ch.removed_number(32) and ch.added_warp_size():
        where = "width" if shuffle else "loop bound"
        return "shuffle-offset", "core", "shuffle %s 32 -> 64 / warp size" % where
    return None


def rule_warp_count(ch):
    if not ch.removed_number(32, 31, 5) or not (ch.added_warp_size() or ch.added_number(6, 63)):
        return None
    if ch.has(re.compile(r"__shared__")) and ch.contexts(32, {"[", "/", "*"}):
        return "warp-count", "core", "per-warp shared storage sized with 32"
    divisions = ch.contexts(32, {"/"}) + ch.contexts(5, {">>"}) + ch.contexts(31, {"+"})
    if any(BLOCK_SIZE.search(c) for c in divisions):
        return "warp-count", "core", "warps per block counted with 32"
    if ch.has(re.compile(r"n_?warps|num_?warps|warps_?per", re.I)) and ch.contexts(32, {"/", "*"}):
        return "warp-count", "core", "warp count and 32 lanes per warp"
    return None


def rule_host(ch):
    if re.search(r"warpSize\s*(==|!=|<=?|>=?)\s*32\b|\b32\s*(==|!=)\s*[\w.]*warpSize", ch.cuda):
        return "host", "core", "host-side warpSize == 32 check"
    if ch.has(LAUNCH) and ch.removed_number(32, 16, 31) and ch.added_warp_size():
        return "host", "extended", "launch shape / thread count sized with 32"
    return None


def rule_lane_math(ch):
    found = (ch.contexts(32, {"%", "/", "*"}) + ch.contexts(31, {"&", "==", "!=", "<", ">", "<="})
             + ch.contexts(5, {">>", "<<"}))
    if not found or not (ch.added_warp_size() or ch.added_number(63, 6)):
        return None
    if any(THREAD_INDEX.search(c) for c in found) and not ch.has(HOST):
        return "lane-math", "core", "lane / warp index computed with 32"
    if ch.added_warp_name():
        return "lane-math", "extended", "32 arithmetic -> warp size (no thread index)"
    return None


def rule_other(ch):
    if ch.deleted:
        return None
    if ch.removed_number(32, 31, 16) and ch.added_warp_name():
        return "other", "extended", "32-lane constant -> warp size name"
    warp_tokens = [t for t in ch.removed + ch.added if WARPISH.search(t) and t != "warpSize"]
    if warp_tokens and ch.removed_number(32, 31, 16, 5) and ch.added_number(64, 63, 32, 6):
        return "other", "extended", "warp-named code changed with a 32-lane constant"
    return None


RULES = [rule_inline_ptx, rule_definition, rule_syncwarp, rule_ballot_width, rule_mask,
         rule_shuffle_offset, rule_warp_count, rule_host, rule_lane_math, rule_other]


def classify(cuda_line, hip_line, full_masks=frozenset()):
    """(class, tier, why) for a changed line pair, or None when it is not a warp change."""
    change = Change(cuda_line, hip_line, full_masks)
    if not change.removed:
        return None
    for rule in RULES:
        verdict = rule(change)
        if verdict:
            return verdict
    return None


# ---------------------------------------------------------------- mining

def snippet(line):
    text = re.sub(r"\s+", " ", line or "").strip()
    return text if len(text) <= SNIPPET_CHARS else text[:SNIPPET_CHARS - 3] + "..."


def mine_file(name, rel, cuda_path, hip_path):
    cuda_raw = read_text(cuda_path).split("\n")
    cuda_code = strip_comments("\n".join(cuda_raw)).split("\n")
    hip_code = strip_comments(normalize_hip(read_text(hip_path))).split("\n")
    full_masks = full_mask_names(cuda_code)
    entries = []
    for index, hip_line in changed_lines(cuda_code, hip_code):
        verdict = classify(cuda_code[index], hip_line, full_masks)
        if verdict:
            cls, tier, why = verdict
            entries.append({"benchmark": name, "file": rel, "line": index + 1, "class": cls,
                            "tier": tier, "why": why, "cuda": snippet(cuda_raw[index]),
                            "hip": snippet(hip_line)})
    return entries


def mine(corpus, names):
    """(truth entries, {benchmark: CUDA files that have a HIP twin})."""
    entries, paired = [], {}
    for name in names:
        pairs = file_pairs(corpus, name)
        if pairs:
            paired[name] = [rel for rel, _, _ in pairs]
        for rel, cuda_path, hip_path in pairs:
            entries += mine_file(name, rel, cuda_path, hip_path)
    entries.sort(key=lambda e: (e["benchmark"], e["file"], e["line"]))
    return entries, paired


def reviewed_entries(corpus, review_path, mined):
    """Truth lines added by review (review.json): lines the port left unchanged
    that still hard-code the 32-lane warp, kept as 'extended' with the reviewer's
    reason. A line the miner already holds is left as mined."""
    with open(review_path, encoding="utf-8") as f:
        review = json.load(f)
    have = {(e["benchmark"], e["file"], e["line"]) for e in mined}
    added = []
    for group in review["lines"]:
        name, rel = group["benchmark"], group["file"]
        cuda_raw = read_text(os.path.join(corpus, name + "-cuda", rel)).split("\n")
        for line in group["lines"]:
            if (name, rel, line) in have:
                continue
            added.append({"benchmark": name, "file": rel, "line": line, "class": group["class"],
                          "tier": "extended", "why": group["why"],
                          "cuda": snippet(cuda_raw[line - 1]), "hip": snippet(cuda_raw[line - 1]),
                          "reviewed": True})
    return added


def summarize(entries):
    summary = {}
    for cls in CLASSES:
        tiers = collections.Counter(e["tier"] for e in entries if e["class"] == cls)
        summary[cls] = {"core": tiers["core"], "extended": tiers["extended"]}
    tiers = collections.Counter(e["tier"] for e in entries)
    summary["total"] = {"core": tiers["core"], "extended": tiers["extended"]}
    return summary


def benchmark_names(corpus):
    with open(os.path.join(corpus, "MANIFEST.json"), encoding="utf-8") as f:
        return json.load(f)["benchmarks"]


def json_block(value):
    """VALUE as JSON, one item of a dict or list of dicts per line."""
    if not value or not isinstance(value, (dict, list)):
        return json.dumps(value)
    if isinstance(value, dict):
        items = ["%s: %s" % (json.dumps(k), json.dumps(v)) for k, v in value.items()]
    elif isinstance(value[0], dict):
        items = [json.dumps(v) for v in value]
    else:
        return json.dumps(value)
    inner = ",\n  ".join(items)
    return ("{\n  %s\n }" if isinstance(value, dict) else "[\n  %s\n ]") % inner


def write_json(path, doc):
    """Compact JSON that still diffs line by line."""
    body = ",\n ".join("%s: %s" % (json.dumps(k), json_block(v)) for k, v in doc.items())
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n %s\n}\n" % body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", nargs="*", help="benchmarks to mine (default: all)")
    ap.add_argument("--review", default=DEFAULT_REVIEW,
                    help="reviewed lines to add (default: review.json; '' for none)")
    args = ap.parse_args()
    names = args.only or benchmark_names(args.corpus)
    entries, paired = mine(args.corpus, names)
    if args.review:
        entries += [e for e in reviewed_entries(args.corpus, args.review, entries)
                    if e["benchmark"] in names]
        entries.sort(key=lambda e: (e["benchmark"], e["file"], e["line"]))
    summary = summarize(entries)
    benchmarks = sorted({e["benchmark"] for e in entries})
    write_json(args.out, {"corpus": os.path.basename(os.path.normpath(args.corpus)),
                          "benchmarks": benchmarks, "summary": summary,
                          "paired_files": paired, "lines": entries})
    for cls, counts in summary.items():
        print("%-15s core %4d  extended %4d" % (cls, counts["core"], counts["extended"]))
    print("wrote %s (%d lines, %d benchmarks)" % (args.out, len(entries), len(benchmarks)))


if __name__ == "__main__":
    sys.exit(main())
