// --html: one self-contained page for reviewers (no external resources):
// summary numbers, the gate's verdict, findings counted by check and by file,
// a table of findings (wave64 first; a definition with its uses folded under
// it) that filters by check, severity, file, text, baseline state and fix,
// each with its source lines, the HIP output for the same lines and any fix
// as before/after, and the statistics.
#include "report/CheckCatalog.h"
#include "report/Reports.h"
#include "core/SourceText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace cu2dcu {

namespace {

constexpr unsigned ContextLines = 3; // shown above and below a finding

std::string esc(llvm::StringRef S) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::printHTMLEscaped(S, OS);
  return Out;
}

/// Renders Text as numbered lines starting at FirstLine. Bytes with Marked
/// set are wrapped in <span class=MarkClass>; line HighlightLine gets the
/// "hl" class.
std::string renderLines(const std::string &Text, unsigned FirstLine,
                        const std::vector<bool> &Marked, const char *MarkClass,
                        unsigned HighlightLine) {
  std::string Out;
  unsigned LineNo = FirstLine;
  size_t I = 0;
  while (I <= Text.size()) {
    size_t End = Text.find('\n', I);
    if (End == std::string::npos)
      End = Text.size();
    if (I == Text.size() && I != 0 && Text[I - 1] == '\n')
      break; // no empty line after a final newline
    size_t Shown = End;
    if (Shown > I && Text[Shown - 1] == '\r')
      --Shown;
    Out += LineNo == HighlightLine ? "<span class=\"ln hl\">" : "<span class=\"ln\">";
    Out += "<span class=\"no\">" + std::to_string(LineNo) + "</span>";
    bool Open = false;
    for (size_t J = I; J < Shown; ++J) {
      bool M = J < Marked.size() && Marked[J];
      if (M != Open) {
        Out += M ? std::string("<span class=\"") + MarkClass + "\">" : "</span>";
        Open = M;
      }
      Out += esc(llvm::StringRef(&Text[J], 1));
    }
    // An insertion at the end of the line (or a marked newline) shows as a
    // marked blank, so that a pure deletion of a line is still visible.
    if (!Open && Shown < Marked.size() && Marked[Shown] && Shown == I)
      Out += std::string("<span class=\"") + MarkClass + "\"> </span>";
    if (Open)
      Out += "</span>";
    Out += "</span>"; // lines are blocks: no newline between them
    ++LineNo;
    I = End + 1;
  }
  return Out;
}

/// Start of the line holding Offset.
size_t lineStart(const std::string &Text, size_t Offset) {
  return lineBounds(Text, std::min(Offset, Text.size())).first;
}
/// Just past the newline ending the line holding Offset.
size_t lineEndWithNewline(const std::string &Text, size_t Offset) {
  size_t End = Text.find('\n', std::min(Offset, Text.size()));
  return End == std::string::npos ? Text.size() : End + 1;
}

struct Window {
  std::string Text;
  std::vector<bool> Marked;
  unsigned FirstLine = 1;
};

/// Original lines [Begin, End) with [MarkBegin, MarkEnd) marked.
Window originalWindow(const std::string &Text, const LineIndex &Lines, size_t Begin, size_t End,
                      size_t MarkBegin, size_t MarkEnd) {
  Window W;
  W.Text = Text.substr(Begin, End - Begin);
  W.Marked.assign(W.Text.size() + 1, false);
  for (size_t I = MarkBegin; I < MarkEnd && I >= Begin && I - Begin < W.Marked.size(); ++I)
    W.Marked[I - Begin] = true;
  W.FirstLine = Lines.lineColumn(Begin).first;
  return W;
}

/// Original lines [Begin, End) after Edits (sorted, non-overlapping, fully
/// inside), with the inserted text marked; FirstLine counts in Translated.
Window editedWindow(const std::string &Original, const LineIndex &TranslatedLines,
                    const std::vector<Edit> &AllEdits, size_t Begin, size_t End) {
  Window W;
  long Delta = 0;
  size_t Pos = Begin;
  for (const Edit &E : AllEdits) {
    if (E.Offset + E.Length <= Begin && E.Offset < Begin) {
      Delta += static_cast<long>(E.Text.size()) - static_cast<long>(E.Length);
      continue;
    }
    if (E.Offset < Begin || E.Offset + E.Length > End)
      continue;
    W.Text += Original.substr(Pos, E.Offset - Pos);
    W.Marked.resize(W.Text.size(), false);
    W.Text += E.Text;
    W.Marked.resize(W.Text.size(), true);
    Pos = E.Offset + E.Length;
  }
  W.Text += Original.substr(Pos, End - Pos);
  W.Marked.resize(W.Text.size() + 1, false);
  W.FirstLine = TranslatedLines.lineColumn(static_cast<unsigned>(Begin + Delta)).first;
  return W;
}

const char *Style = R"css(
:root{--err:#c62828;--warn:#b26a00;--note:#1565c0;--ok:#2e7d32;--bg:#f6f7f9;--card:#fff;
--line:#e3e6ea;--muted:#5f6b7a;--hl:#fff6cc;--mark:#ffd54f;--ins:#c8f7c5;--del:#ffcdd2}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:#1d2430}
header,section,footer{max-width:1280px;margin:0 auto;padding:0 20px}
header{padding-top:18px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:26px 0 10px}h3{font-size:15px;margin:18px 0 8px}
.meta{color:var(--muted);margin:0}
code,pre,.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:12.5px}
.gate{display:inline-block;margin:10px 0 0;padding:6px 12px;border-radius:6px;font-weight:600}
.gate.pass{background:#e8f5e9;color:var(--ok)}.gate.fail{background:#ffebee;color:var(--err)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin-top:16px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.card .n{font-size:22px;font-weight:650}.card .l{color:var(--muted);font-size:12.5px}
.card.error .n{color:var(--err)}.card.warning .n{color:var(--warn)}.card.note .n{color:var(--note)}
.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:center;background:var(--card);border:1px solid var(--line);
border-radius:8px;padding:10px 12px;margin-bottom:10px}
.filters label{color:var(--muted);font-size:12.5px;display:flex;gap:6px;align-items:center}
select,input[type=search],button{font:inherit;padding:4px 8px;border:1px solid #c4cad3;border-radius:5px;background:#fff}
button{cursor:pointer}#f-count{margin-left:auto;color:var(--muted)}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{text-align:left;padding:6px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:#eef1f5;font-weight:600;font-size:12.5px;color:#39424e}
table.grid{border:1px solid var(--line);border-radius:8px}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
#findings-table{border:1px solid var(--line)}
tbody.finding tr.row{cursor:pointer}tbody.finding tr.row:hover{background:#f3f6fb}
tbody.finding.open tr.row{background:#eef4ff}
tr.row td:first-child::before{content:"\25B8";display:inline-block;width:14px;color:var(--muted)}
tbody.finding.open tr.row td:first-child::before{content:"\25BE"}
.sev{display:inline-block;padding:1px 7px;border-radius:10px;font-size:12px;font-weight:600;color:#fff}
.sev.error{background:var(--err)}.sev.warning{background:var(--warn)}.sev.note{background:var(--note)}
.known,.new,.uses,.fixtext{display:inline-block;margin-left:6px;padding:0 6px;border-radius:10px;font-size:11px;background:#e0e0e0;color:#444}
.new{background:#fde2e2;color:#8a1c1c}.uses{background:#e3ecfb;color:#1f4a8a}
.fixtext{background:#e6f4e6;color:#1e5e20;font-family:ui-monospace,Menlo,Consolas,monospace}
tbody.group th{background:#dfe5ee;font-size:13px}
ul.related{margin:8px 0 0;padding-left:18px}ul.related li{margin:2px 0}
ul.related code{background:#f0f2f5;padding:0 4px;border-radius:3px}
td.detail{background:#fafbfc;padding:10px 14px 14px}
.panes{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.pane{min-width:0}.pane-title{font-size:12px;color:var(--muted);margin:2px 0 4px}
pre.code{margin:0;background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px 0;overflow:auto}
pre.code .ln{display:block;padding:0 10px 0 0;white-space:pre}
pre.code .ln.hl{background:var(--hl)}
pre.code .no{display:inline-block;width:44px;padding-right:10px;text-align:right;color:#9aa3ad;user-select:none}
.mark{background:var(--mark);border-radius:2px}.ins{background:var(--ins)}.del{background:var(--del);text-decoration:line-through}
.fix{margin-top:10px}.fix-title{font-weight:600;margin:0 0 4px}
.applied{color:var(--ok);font-weight:600}
.check-desc{color:var(--muted);margin:0 0 8px}
.two{display:grid;grid-template-columns:1fr 1fr;gap:14px;align-items:start}
.scroll{max-height:360px;overflow:auto;border:1px solid var(--line);border-radius:8px}
.status-translated{color:var(--ok)}.status-failed{color:var(--err);font-weight:600}
.empty{color:var(--muted);padding:14px;background:var(--card);border:1px solid var(--line);border-radius:8px}
footer{color:var(--muted);font-size:12px;padding:24px 20px 30px}
a{color:#0b57d0}
@media (max-width:900px){.panes,.two{grid-template-columns:1fr}}
)css";

const char *Script = R"js(
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('tbody.finding'));
  var byId = function (id) { return document.getElementById(id); };
  var check = byId('f-check'), sev = byId('f-severity'), file = byId('f-file');
  var text = byId('f-text'), newOnly = byId('f-new'), count = byId('f-count'), none = byId('no-match');
  var withFix = byId('f-fix');
  function apply() {
    var q = text.value.trim().toLowerCase(), shown = 0;
    rows.forEach(function (r) {
      var ok = (!check.value || r.dataset.check === check.value) &&
               (!sev.value || r.dataset.severity === sev.value) &&
               (!file.value || r.dataset.file === file.value) &&
               (!newOnly || !newOnly.checked || r.dataset.baseline !== 'unchanged') &&
               (!withFix.checked || r.dataset.fix === '1') &&
               (!q || r.dataset.search.indexOf(q) >= 0);
      r.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = 'Showing ' + shown + ' of ' + rows.length + ' findings';
    none.hidden = !(rows.length > 0 && shown === 0);
  }
  function toggle(tb, open) {
    var detail = tb.querySelector('tr.detail');
    var show = open === undefined ? detail.hidden : open;
    detail.hidden = !show;
    tb.classList.toggle('open', show);
    tb.querySelector('tr.row').setAttribute('aria-expanded', show ? 'true' : 'false');
  }
  [check, sev, file, newOnly, withFix].forEach(function (e) {
    if (e) e.addEventListener('change', apply);
  });
  text.addEventListener('input', apply);
  rows.forEach(function (tb) {
    var row = tb.querySelector('tr.row');
    row.addEventListener('click', function (e) { if (!e.target.closest('a')) toggle(tb); });
    row.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(tb); }
    });
  });
  byId('expand-all').addEventListener('click', function () {
    rows.forEach(function (tb) { if (!tb.hidden) toggle(tb, true); });
  });
  byId('collapse-all').addEventListener('click', function () {
    rows.forEach(function (tb) { toggle(tb, false); });
  });
  Array.prototype.forEach.call(document.querySelectorAll('[data-filter-check],[data-filter-file]'),
                               function (a) {
    a.addEventListener('click', function () {
      check.value = a.getAttribute('data-filter-check') || '';
      file.value = a.getAttribute('data-filter-file') || '';
      sev.value = ''; text.value = ''; apply();
    });
  });
  apply();
})();
)js";

bool isWave64(const Diagnostic &D) { return llvm::StringRef(D.CheckId).starts_with("W64-"); }

/// The order a reviewer works in: the wave64 findings first (a definition
/// counts once, its uses are folded under it), then the translator's; each
/// part in file order.
std::vector<size_t> reviewOrder(const std::vector<Diagnostic> &Diagnostics) {
  std::vector<size_t> Order(Diagnostics.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_partition(Order.begin(), Order.end(),
                        [&](size_t I) { return isWave64(Diagnostics[I]); });
  return Order;
}

size_t usesOf(const Diagnostic &D) {
  return llvm::count_if(D.Related, [](const RelatedLocation &R) { return !R.CheckId.empty(); });
}

/// Findings per check and per file, wave64 first; each name filters the table.
void writeCounts(const std::vector<Diagnostic> &Diagnostics, llvm::raw_ostream &OS) {
  std::map<std::pair<bool, std::string>, std::pair<size_t, size_t>> ByCheck; // findings, uses
  std::map<std::string, std::pair<size_t, size_t>> ByFile;                 // wave64, all
  for (const Diagnostic &D : Diagnostics) {
    auto &C = ByCheck[{!isWave64(D), D.CheckId}];
    ++C.first;
    C.second += usesOf(D);
    auto &F = ByFile[D.File];
    F.first += isWave64(D);
    ++F.second;
  }
  OS << "<section id=\"counts\" class=\"two\">\n<div><h3>By check</h3><table class=\"grid\" "
     << "id=\"counts-check\"><thead><tr><th>Check</th><th class=\"num\">Findings</th>"
     << "<th class=\"num\">Uses folded in</th></tr></thead><tbody>\n";
  for (const auto &[Key, N] : ByCheck)
    OS << "<tr><td><a class=\"mono\" href=\"#findings\" data-filter-check=\"" << esc(Key.second)
       << "\">" << esc(Key.second) << "</a></td><td class=\"num\">" << N.first
       << "</td><td class=\"num\">" << N.second << "</td></tr>\n";
  OS << "</tbody></table></div>\n<div><h3>By file</h3><div class=\"scroll\"><table "
     << "id=\"counts-file\"><thead><tr><th>File</th><th class=\"num\">Wave64</th>"
     << "<th class=\"num\">All</th></tr></thead><tbody>\n";
  for (const auto &[File, N] : ByFile)
    OS << "<tr><td><a class=\"mono\" href=\"#findings\" data-filter-file=\"" << esc(File)
       << "\">" << esc(File) << "</a></td><td class=\"num\">" << N.first
       << "</td><td class=\"num\">" << N.second << "</td></tr>\n";
  OS << "</tbody></table></div></div>\n</section>\n";
}

/// Badges after a finding's message: the uses folded into it, its baseline
/// state, and what its first fix writes (what --fix-wave64 would change).
std::string badgesOf(const Diagnostic &D, const std::string &Baseline) {
  std::string Out;
  if (size_t Uses = usesOf(D))
    Out += "<span class=\"uses\">" + std::to_string(Uses) + (Uses == 1 ? " use" : " uses") +
           "</span>";
  if (Baseline == "new")
    Out += "<span class=\"new\" title=\"not in the baseline\">new</span>";
  if (!D.Fixes.empty())
    Out += "<span class=\"fixtext\" title=\"" + esc(D.Fixes.front().Description) + "\">" +
           (D.Fixes.front().Applied ? "fixed: " : "fix: ") + esc(D.Fixes.front().Replacement) +
           "</span>";
  return Out;
}

/// The uses folded into a definition (or the definition of a use), each with
/// its source line.
void writeRelated(const Diagnostic &D, const std::map<std::string, const FileReport *> &ByDisplay,
                  llvm::raw_ostream &OS) {
  if (D.Related.empty())
    return;
  size_t Uses = usesOf(D);
  OS << "<div class=\"fix related\"><p class=\"fix-title\">"
     << (Uses ? "Uses of this definition (" + std::to_string(Uses) + ")"
              : std::string("Definition"))
     << "</p><ul class=\"related\">\n";
  for (const RelatedLocation &R : D.Related) {
    OS << "<li><span class=\"mono\">" << esc(R.File) << ":" << R.Line << "</span> ";
    auto It = ByDisplay.find(R.File);
    if (It != ByDisplay.end())
      OS << "<code>" << esc(llvm::StringRef(lineAt(It->second->Original, R.Offset)).trim())
         << "</code> ";
    OS << "&mdash; " << esc(R.CheckId.empty() ? R.Message : R.CheckId + ": " + R.Message)
       << "</li>\n";
  }
  OS << "</ul></div>\n";
}

} // namespace

void writeHtmlReport(const ReportContext &C, llvm::raw_ostream &OS) {
  const RunResult &Run = *C.Run;
  const RunStatistics &S = *C.Stats;
  const FindingStates &States = *C.States;

  std::map<std::string, const FileReport *> ByDisplay;
  for (const FileReport &F : Run.Files)
    ByDisplay[F.Input.Display] = &F;
  std::set<std::string> CheckIds, FilesWithFindings;
  std::map<std::string, unsigned> FindingsPerFile;
  for (const Diagnostic &D : Run.Diagnostics) {
    CheckIds.insert(D.CheckId);
    FilesWithFindings.insert(D.File);
    ++FindingsPerFile[D.File];
  }

  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
     << "<title>cu2dcu report</title>\n<style>" << Style << "</style>\n</head>\n<body>\n";

  // Header and gate.
  OS << "<header>\n<h1>cu2dcu report</h1>\n<p class=\"meta\">cu2dcu " << esc(C.ToolVersion)
     << " (LLVM " << esc(C.LlvmVersion) << ") &middot; input <code>" << esc(C.InputRoot)
     << "</code>";
  if (!C.OutputPath.empty())
    OS << " &middot; output <code>" << esc(C.OutputPath) << "</code>";
  OS << " &middot; " << Run.Files.size() << " files in "
     << llvm::format("%.2f", Run.Seconds) << " s</p>\n";
  const GateResult &G = *C.Gate;
  OS << "<p class=\"gate " << (G.Failed ? "fail" : "pass") << "\" id=\"gate\">";
  if (G.Failed) {
    OS << "CI gate failed: ";
    for (size_t I = 0; I < G.Reasons.size(); ++I)
      OS << (I ? "; " : "") << esc(G.Reasons[I]);
  } else {
    OS << "CI gate passed (--fail-on=" << failThresholdName(G.FailOn);
    if (G.MaxWarnings)
      OS << ", --max-warnings=" << *G.MaxWarnings;
    OS << ")";
  }
  OS << "</p>\n</header>\n";

  // Summary cards.
  auto Card = [&](const char *Class, uint64_t N, const std::string &Label, const char *Id) {
    OS << "<div class=\"card " << Class << "\" id=\"sum-" << Id << "\"><div class=\"n\">" << N
       << "</div><div class=\"l\">" << esc(Label) << "</div></div>\n";
  };
  OS << "<section id=\"summary\" class=\"cards\">\n";
  Card("", S.Translated, "files translated", "translated");
  Card("", S.Unchanged, "files unchanged", "unchanged");
  Card("", S.Copied, "files copied", "copied");
  Card(S.Failed ? "error" : "", S.Failed, "files failed", "failed");
  Card("", S.AstFiles, "parsed with the AST", "ast");
  Card("", S.LexicalFiles, "translated lexically", "lexical");
  Card("", S.ApiRenames, "API names rewritten", "api");
  Card("", S.Launches, "kernel launches rewritten", "launches");
  Card("", S.LinesChanged, "lines changed", "lines");
  Card(S.UnsupportedUses ? "error" : "", S.UnsupportedUses, "unsupported API uses",
       "unsupported");
  Card("error", S.Errors, "errors", "errors");
  Card("warning", S.Warnings, "warnings", "warnings");
  Card("note", S.Notes, "notes", "notes");
  if (States.HasBaseline)
    Card("", States.BaselinedCount, "accepted by the baseline", "baselined");
  OS << "</section>\n";

  writeCounts(Run.Diagnostics, OS);

  // Findings.
  OS << "<section id=\"findings\">\n<h2>Findings</h2>\n<div class=\"filters\">\n";
  OS << "<label>Check <select id=\"f-check\"><option value=\"\">all checks</option>";
  for (const std::string &Id : CheckIds)
    OS << "<option value=\"" << esc(Id) << "\">" << esc(Id) << "</option>";
  OS << "</select></label>\n<label>Severity <select id=\"f-severity\"><option value=\"\">all"
     << "</option><option value=\"error\">error</option><option value=\"warning\">warning"
     << "</option><option value=\"note\">note</option></select></label>\n";
  OS << "<label>File <select id=\"f-file\"><option value=\"\">all files</option>";
  for (const std::string &F : FilesWithFindings)
    OS << "<option value=\"" << esc(F) << "\">" << esc(F) << "</option>";
  OS << "</select></label>\n";
  if (States.HasBaseline)
    OS << "<label><input type=\"checkbox\" id=\"f-new\"> new only</label>\n";
  OS << "<label><input type=\"checkbox\" id=\"f-fix\"> with a fix</label>\n";
  OS << "<input type=\"search\" id=\"f-text\" placeholder=\"Search messages\" "
     << "aria-label=\"Search messages\">\n"
     << "<button type=\"button\" id=\"expand-all\">Expand all</button>\n"
     << "<button type=\"button\" id=\"collapse-all\">Collapse all</button>\n"
     << "<span id=\"f-count\"></span>\n</div>\n";

  if (Run.Diagnostics.empty())
    OS << "<p class=\"empty\" id=\"no-findings\">No findings.</p>\n";
  OS << "<p class=\"empty\" id=\"no-match\" hidden>No finding matches the filters.</p>\n";
  OS << "<table id=\"findings-table\"" << (Run.Diagnostics.empty() ? " hidden" : "")
     << ">\n<thead><tr><th style=\"width:110px\">Severity</th><th style=\"width:190px\">Check</th>"
     << "<th style=\"width:260px\">Location</th><th>Message</th></tr></thead>\n";
  std::vector<size_t> Order = reviewOrder(Run.Diagnostics);
  size_t Wave64 = llvm::count_if(Run.Diagnostics, isWave64);
  LineIndexes Lines;
  for (size_t Position = 0; Position < Order.size(); ++Position) {
    size_t I = Order[Position];
    const Diagnostic &D = Run.Diagnostics[I];
    if (Position == 0 || Position == Wave64)
      OS << "<tbody class=\"group\"><tr><th colspan=\"4\">"
         << (Position < Wave64 ? "Wavefront-64 findings (" + std::to_string(Wave64) + ")"
                               : "Translation findings (" +
                                     std::to_string(Order.size() - Wave64) + ")")
         << "</th></tr></tbody>\n";
    const char *Sev = severityName(D.Level);
    std::string Baseline = !States.HasBaseline ? "" : States.Baselined[I] ? "unchanged" : "new";
    std::string Location = D.File;
    if (D.Line)
      Location += ":" + std::to_string(D.Line) + ":" + std::to_string(D.Column);
    std::string Search = llvm::StringRef(D.CheckId + " " + Location + " " + D.Message).lower();
    std::string Help = helpUri(C.DocsBase, D.CheckId);
    OS << "<tbody class=\"finding\" id=\"finding-" << I + 1 << "\" data-check=\"" << esc(D.CheckId)
       << "\" data-severity=\"" << Sev << "\" data-file=\"" << esc(D.File)
       << "\" data-baseline=\"" << Baseline << "\" data-fix=\"" << (D.Fixes.empty() ? "0" : "1")
       << "\" data-search=\"" << esc(Search) << "\">\n";
    OS << "<tr class=\"row\" tabindex=\"0\" aria-expanded=\"false\"><td><span class=\"sev " << Sev
       << "\">" << Sev << "</span>";
    if (Baseline == "unchanged")
      OS << "<span class=\"known\" title=\"accepted by the baseline\">known</span>";
    OS << "</td><td><a class=\"mono\" href=\"" << esc(Help) << "\">" << esc(D.CheckId)
       << "</a></td><td class=\"mono\">" << esc(Location) << "</td><td>" << esc(D.Message)
       << badgesOf(D, Baseline) << "</td></tr>\n";

    // Details: the description, source and output around it, and the fixes.
    OS << "<tr class=\"detail\" hidden><td colspan=\"4\" class=\"detail\">\n";
    CheckInfo Info = describeCheck(D.CheckId);
    OS << "<p class=\"check-desc\">" << esc(Info.ShortDescription) << " <a href=\"" << esc(Help)
       << "\">Documentation of " << esc(D.CheckId) << "</a></p>\n";
    writeRelated(D, ByDisplay, OS);
    auto It = ByDisplay.find(D.File);
    if (It == ByDisplay.end()) {
      OS << "<p class=\"check-desc\">The file is not among the inputs; no source to show.</p>\n";
    } else if (!D.Line) {
      OS << "<p class=\"check-desc\">This finding is about the whole file.</p>\n";
    } else {
      const FileReport &F = *It->second;
      const std::string &Text = F.Original;
      unsigned FromLine = D.Line > ContextLines ? D.Line - ContextLines : 1;
      const LineIndex &TextLines = Lines.of(Text);
      size_t Begin = TextLines.lineStart(FromLine);
      size_t End = lineEndWithNewline(Text, TextLines.lineStart(D.Line + ContextLines));
      // Widen to whole edits that cross the window, so the output is exact.
      for (const Edit &E : F.Applied)
        if (E.Offset < End && E.Offset + E.Length > Begin) {
          Begin = std::min<size_t>(Begin, lineStart(Text, E.Offset));
          End = std::max<size_t>(End, lineEndWithNewline(Text, E.Offset + E.Length));
        }
      Window Before =
          originalWindow(Text, TextLines, Begin, End, D.Offset, tokenEnd(Text, D.Offset));
      Window After = editedWindow(Text, Lines.of(F.Translated), F.Applied, Begin, End);
      OS << "<div class=\"panes\"><div class=\"pane\"><div class=\"pane-title\">CUDA source, "
         << esc(D.File) << "</div><pre class=\"code src\">"
         << renderLines(Before.Text, Before.FirstLine, Before.Marked, "mark", D.Line)
         << "</pre></div>\n<div class=\"pane\"><div class=\"pane-title\">HIP output ("
         << (F.Status == FileStatus::Translated ? "changes marked" : fileStatusName(F.Status))
         << ")</div><pre class=\"code out\">"
         << renderLines(After.Text, After.FirstLine, After.Marked, "ins", 0)
         << "</pre></div></div>\n";
      for (const FixIt &Fix : D.Fixes) {
        size_t FB = lineStart(Text, Fix.Offset);
        size_t FE = lineEndWithNewline(Text, Fix.Offset + Fix.Length);
        Window FixBefore =
            originalWindow(Text, TextLines, FB, FE, Fix.Offset, Fix.Offset + Fix.Length);
        if (Fix.Length == 0 && Fix.Offset >= FB && Fix.Offset - FB < FixBefore.Marked.size())
          FixBefore.Marked[Fix.Offset - FB] = false;
        Edit AsEdit{Fix.Offset, Fix.Length, Fix.Replacement, "", ""};
        Window FixAfter = editedWindow(Text, TextLines, {AsEdit}, FB, FE);
        FixAfter.FirstLine = FixBefore.FirstLine;
        OS << "<div class=\"fix\"><p class=\"fix-title\">Fix: " << esc(Fix.Description)
           << (Fix.Applied ? " <span class=\"applied\">(applied)</span>"
                           : " (suggested, not applied)")
           << "</p><div class=\"panes\"><div class=\"pane\"><div class=\"pane-title\">Before"
           << "</div><pre class=\"code fix-before\">"
           << renderLines(FixBefore.Text, FixBefore.FirstLine, FixBefore.Marked, "del", 0)
           << "</pre></div><div class=\"pane\"><div class=\"pane-title\">After</div>"
           << "<pre class=\"code fix-after\">"
           << renderLines(FixAfter.Text, FixAfter.FirstLine, FixAfter.Marked, "ins", 0)
           << "</pre></div></div></div>\n";
      }
    }
    OS << "</td></tr>\n</tbody>\n";
  }
  OS << "</table>\n</section>\n";

  // Statistics.
  OS << "<section id=\"statistics\">\n<h2>Translation statistics</h2>\n<div class=\"two\">\n"
     << "<div><h3>API names rewritten per family</h3><table class=\"grid\" id=\"stats-family\">"
     << "<thead><tr><th>Family</th><th class=\"num\">Rewrites</th></tr></thead><tbody>\n";
  for (const auto &[Family, Count] : S.RenamesByFamily)
    OS << "<tr><td>" << esc(Family) << "</td><td class=\"num\">" << Count << "</td></tr>\n";
  OS << "<tr><td>kernel launches</td><td class=\"num\">" << S.Launches << "</td></tr>\n"
     << "<tr><td>includes</td><td class=\"num\">" << S.Includes << "</td></tr>\n"
     << "<tr><td>symbol arguments</td><td class=\"num\">" << S.Symbols << "</td></tr>\n"
     << "<tr><td>wave64 fixes</td><td class=\"num\">" << S.Wave64Fixes << "</td></tr>\n"
     << "<tr><td>launch-bounds arguments removed</td><td class=\"num\">" << S.LaunchBoundsRemoved
     << "</td></tr>\n"
     << "</tbody></table>\n";
  OS << "<h3>Findings per check</h3><table class=\"grid\" id=\"stats-checks\"><thead><tr><th>"
     << "Check</th><th class=\"num\">Findings</th><th>Description</th></tr></thead><tbody>\n";
  for (const auto &[Id, Count] : S.FindingsByCheck)
    OS << "<tr><td><a class=\"mono\" href=\"#findings\" data-filter-check=\"" << esc(Id)
       << "\" title=\"Show only these findings\">" << esc(Id) << "</a></td><td class=\"num\">"
       << Count << "</td><td>" << esc(describeCheck(Id).ShortDescription) << " <a href=\""
       << esc(helpUri(C.DocsBase, Id)) << "\">docs</a></td></tr>\n";
  OS << "</tbody></table></div>\n";
  std::vector<std::pair<std::string, unsigned>> Names(S.RenamesByName.begin(),
                                                      S.RenamesByName.end());
  std::stable_sort(Names.begin(), Names.end(),
                   [](const auto &A, const auto &B) { return A.second > B.second; });
  OS << "<div><h3>API names rewritten</h3><div class=\"scroll\"><table id=\"stats-names\">"
     << "<thead><tr><th>CUDA name</th><th class=\"num\">Rewrites</th></tr></thead><tbody>\n";
  for (const auto &[Name, Count] : Names)
    OS << "<tr><td class=\"mono\">" << esc(Name) << "</td><td class=\"num\">" << Count
       << "</td></tr>\n";
  OS << "</tbody></table></div></div>\n</div>\n";

  OS << "<h3>Files</h3><div class=\"scroll\"><table id=\"stats-files\"><thead><tr><th>File</th>"
     << "<th>Status</th><th>Parsed</th><th class=\"num\">Lines changed</th><th class=\"num\">"
     << "Findings</th><th>Note</th></tr></thead><tbody>\n";
  for (const FileReport &F : Run.Files)
    OS << "<tr><td class=\"mono\">" << esc(F.Input.Display) << "</td><td class=\"status-"
       << fileStatusName(F.Status) << "\">" << fileStatusName(F.Status) << "</td><td>"
       << (F.Mode == ParseMode::None ? "&ndash;" : parseModeName(F.Mode))
       << "</td><td class=\"num\">" << F.LinesChanged
       << "</td><td class=\"num\">" << FindingsPerFile[F.Input.Display] << "</td><td>"
       << esc(F.ModeReason) << "</td></tr>\n";
  OS << "</tbody></table></div>\n</section>\n";

  OS << "<footer>Generated by cu2dcu " << esc(C.ToolVersion)
     << ". Finding ids link to their documentation (<a href=\"" << esc(C.DocsBase)
     << "findings.md\">findings.md</a>, <a href=\"" << esc(C.DocsBase)
     << "checks/\">checks/</a>).</footer>\n";
  OS << "<script>" << Script << "</script>\n</body>\n</html>\n";
}

} // namespace cu2dcu
