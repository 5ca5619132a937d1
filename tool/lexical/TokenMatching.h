// Bracket and template-argument matching over a raw token stream, without
// types: how the lexical pass finds a call's arguments and a launch's
// <<< >>> through nested templates, parentheses and '>>' runs.
#pragma once

#include "translate/RawTokens.h"

#include <string>
#include <utility>
#include <vector>

namespace cu2dcu::lexical {

using TokenList = std::vector<RawToken>;
/// Token indices [first, last] of one argument.
using TokenSpan = std::pair<size_t, size_t>;

/// Bounds on the look-around of the heuristics, so that pathological input
/// (a megabyte of '<') stays linear.
constexpr int LookLimit = 4096;
constexpr size_t TemplateLookLimit = 512;

bool isOpen(clang::tok::TokenKind K);
bool isClose(clang::tok::TokenKind K);
clang::tok::TokenKind closerOf(clang::tok::TokenKind K);
clang::tok::TokenKind openerOf(clang::tok::TokenKind K);

/// Number of '>' characters of a token of the '>' family, else 0.
unsigned greaterCount(clang::tok::TokenKind K);

/// Words after which an identifier is an operand, not a name being declared.
bool isExpressionKeyword(const std::string &S);

/// Index of the bracket closing the one at Open, or -1. A ';' outside braces
/// (a lambda body) ends the search: brackets never span statements, and the
/// search stays linear on unbalanced input.
int matchForward(const TokenList &T, size_t Open);
/// Index of the bracket opening the one at Close, or -1.
int matchBackward(const TokenList &T, size_t Close);

/// End (one past) of the run of adjacent '>' tokens starting at I (always
/// past I); Chars gets the number of '>' characters in it, Contiguous whether
/// they are consecutive bytes (no line continuation inside a token).
size_t greaterRunEnd(const TokenList &T, size_t I, unsigned &Chars, bool &Contiguous);

/// Whether the '<' at Less opens template arguments: it follows a name and a
/// matching '>' comes before anything that cannot appear in template
/// arguments (';', '&&', '?', an unbalanced bracket). In a launch
/// configuration the last three '>' of a run followed by '(' are the '>>>'.
bool opensTemplate(const std::string &Text, const TokenList &T, size_t Less, bool InLaunchConfig);

/// The arguments of the call whose '(' is T[Open], split at top-level commas
/// (brackets and template arguments nest); nothing when the parentheses do
/// not close.
std::vector<TokenSpan> argumentSpans(const std::string &Text, const TokenList &T, size_t Open);

} // namespace cu2dcu::lexical
