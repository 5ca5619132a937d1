// A member access on a CUDA struct whose HIP counterpart lacks the member
// for the target HIP (the type entry's missing_members): the port would not
// compile there, so the access is reported (CU2DCU-MEMBER) where it is
// written. AST mode only: the lexical pass cannot tell a member's struct.
#pragma once

#include "match/SourceContext.h"

#include "clang/AST/Expr.h"

namespace cu2dcu {

class MissingMemberCheck {
public:
  explicit MissingMemberCheck(SourceContext &Context) : Context(Context) {}
  void handle(const clang::MemberExpr *Access);

private:
  /// The entry of the CUDA type a member is read through that lists it as
  /// missing: the base's typedefs outward in, then its struct.
  const ApiEntry *entryListing(clang::QualType Base, const std::string &Member) const;

  SourceContext &Context;
};

} // namespace cu2dcu
