#include "driver/UnitOutcome.h"
#include "core/ResultJson.h"

namespace cu2dcu {

llvm::json::Value toJSON(const UnitOutcome &O) {
  return llvm::json::Object{{"usedPch", O.UsedPch}, {"pchRejected", O.PchRejected},
                            {"parse", O.Parse},     {"match", O.Match},
                            {"result", O.Result},   {"reads", O.Reads}};
}

bool fromJSON(const llvm::json::Value &V, UnitOutcome &O, llvm::json::Path P) {
  llvm::json::ObjectMapper M(V, P);
  return M && M.map("usedPch", O.UsedPch) && M.map("pchRejected", O.PchRejected) &&
         M.map("parse", O.Parse) && M.map("match", O.Match) && M.map("result", O.Result) &&
         M.map("reads", O.Reads);
}

} // namespace cu2dcu
