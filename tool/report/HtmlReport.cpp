// --html: one self-contained page for reviewers (no external resources). The
// page (tool/report/html/: skeleton, style and script, embedded at build
// time) holds the JSON report of the same run and draws itself from it:
// summary numbers, the gate's verdict, findings counted by check and by
// file, a table of findings (wave64 first; a definition with its uses folded
// under it) that filters by check, severity, file, text, baseline state and
// fix, and the statistics. What the JSON report does not hold is added
// beside it per finding: the source lines around it, the HIP output for the
// same lines, and each fix as before/after.
#include "HtmlAssets.h" // generated from tool/report/html/ (EmbedHtml.cmake)
#include "report/Reports.h"
#include "core/SourceText.h"


#include <algorithm>
#include <map>

namespace cu2dcu {

namespace {

constexpr unsigned ContextLines = 3; // shown above and below a finding

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

/// A window as the page draws it: its first line number, its text in runs
/// of marked and unmarked bytes, and whether the end (an insertion there)
/// is marked.
llvm::json::Object windowJson(const Window &W) {
  llvm::json::Array Runs;
  size_t Begin = 0;
  for (size_t I = 1; I <= W.Text.size(); ++I)
    if (I == W.Text.size() || W.Marked[I] != W.Marked[Begin]) {
      Runs.push_back(llvm::json::Array{W.Text.substr(Begin, I - Begin), bool(W.Marked[Begin])});
      Begin = I;
    }
  return llvm::json::Object{{"first", W.FirstLine},
                            {"runs", std::move(Runs)},
                            {"end", bool(W.Marked[W.Text.size()])}};
}

/// The source and output lines around a finding, widened to whole edits
/// that cross them so that the output is exact.
void addSourceWindows(const Diagnostic &D, const FileReport &F, LineIndexes &Lines,
                      llvm::json::Object &View) {
  const std::string &Text = F.Original;
  unsigned FromLine = D.Line > ContextLines ? D.Line - ContextLines : 1;
  const LineIndex &TextLines = Lines.of(Text);
  size_t Begin = TextLines.lineStart(FromLine);
  size_t End = lineEndWithNewline(Text, TextLines.lineStart(D.Line + ContextLines));
  for (const Edit &E : F.Applied)
    if (E.Offset < End && E.Offset + E.Length > Begin) {
      Begin = std::min<size_t>(Begin, lineStart(Text, E.Offset));
      End = std::max<size_t>(End, lineEndWithNewline(Text, E.Offset + E.Length));
    }
  View["source"] =
      windowJson(originalWindow(Text, TextLines, Begin, End, D.Offset, tokenEnd(Text, D.Offset)));
  View["output"] = windowJson(editedWindow(Text, Lines.of(F.Translated), F.Applied, Begin, End));
  llvm::json::Array Fixes;
  for (const FixIt &Fix : D.Fixes) {
    size_t FB = lineStart(Text, Fix.Offset);
    size_t FE = lineEndWithNewline(Text, Fix.Offset + Fix.Length);
    Window Before = originalWindow(Text, TextLines, FB, FE, Fix.Offset, Fix.Offset + Fix.Length);
    if (Fix.Length == 0 && Fix.Offset >= FB && Fix.Offset - FB < Before.Marked.size())
      Before.Marked[Fix.Offset - FB] = false;
    Edit AsEdit{Fix.Offset, Fix.Length, Fix.Replacement, "", ""};
    Window After = editedWindow(Text, TextLines, {AsEdit}, FB, FE);
    After.FirstLine = Before.FirstLine;
    Fixes.push_back(llvm::json::Object{{"before", windowJson(Before)}, {"after", windowJson(After)}});
  }
  View["fixes"] = std::move(Fixes);
}

/// What the page shows of a finding beyond the JSON report: the lines of its
/// related locations, and where it has a line of an input, the windows.
llvm::json::Object viewOf(const Diagnostic &D,
                          const std::map<std::string, const FileReport *> &ByDisplay,
                          LineIndexes &Lines) {
  llvm::json::Array Related;
  for (const RelatedLocation &R : D.Related) {
    auto It = ByDisplay.find(R.File);
    Related.push_back(It == ByDisplay.end()
                          ? llvm::json::Value(nullptr)
                          : llvm::json::Value( // a std::string: json::Value keeps a StringRef
                                llvm::StringRef(lineAt(It->second->Original, R.Offset)).trim().str()));
  }
  llvm::json::Object View{{"related", std::move(Related)}};
  auto It = ByDisplay.find(D.File);
  View["context"] = It == ByDisplay.end() ? "missing" : !D.Line ? "file" : "lines";
  if (It != ByDisplay.end() && D.Line)
    addSourceWindows(D, *It->second, Lines, View);
  return View;
}

/// The page's data as script text: JSON with every '<' escaped, so that no
/// string in it can end the script element.
std::string pageData(const ReportContext &C) {
  std::map<std::string, const FileReport *> ByDisplay;
  for (const FileReport &F : C.Run->Files)
    ByDisplay[F.Input.Display] = &F;
  llvm::json::Array Views;
  LineIndexes Lines;
  for (const Diagnostic &D : C.Run->Diagnostics)
    Views.push_back(viewOf(D, ByDisplay, Lines));
  std::string Json;
  llvm::raw_string_ostream(Json)
      << llvm::json::Value(llvm::json::Object{{"report", buildJsonReport(C)},
                                              {"views", std::move(Views)}});
  std::string Escaped;
  Escaped.reserve(Json.size());
  for (char Ch : Json)
    if (Ch == '<')
      Escaped += "\\u003c";
    else
      Escaped += Ch;
  return Escaped;
}

} // namespace

void writeHtmlReport(const ReportContext &C, llvm::raw_ostream &OS) {
  const std::pair<llvm::StringRef, std::string> Fills[] = {
      {"@STYLE@", HtmlReportStyle}, {"@DATA@", pageData(C)}, {"@SCRIPT@", HtmlReportScript}};
  llvm::StringRef Rest = HtmlReportPage;
  for (const auto &[Placeholder, Text] : Fills) {
    auto [Before, After] = Rest.split(Placeholder);
    OS << Before << Text;
    Rest = After;
  }
  OS << Rest;
}

} // namespace cu2dcu
