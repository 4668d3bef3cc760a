// The clang plugin syclone++ loads into every host and device compile (seed 004 "Attributes" and
// "Compiler Flags"): upstream clang 22 does not know SYCL's sub-group size attributes, so this
// plugin
//   - accepts [[sycl::reqd_sub_group_size(N)]], [[intel::sub_group_size(N)]],
//     [[intel::reqd_sub_group_size(N)]] and [[intel::named_sub_group_size(automatic|primary)]] on
//     functions (kernel functors' operator(), lambdas, SYCL_EXTERNAL functions), checks them
//     and records them as `annotate("syclone.sub_group_size", N)` attributes;
//   - accepts SYCL 2020's [[sycl::reqd_work_group_size(...)]], [[sycl::work_group_size_hint(...)]]
//     and [[sycl::device_has(...)]] in the same places, recorded as annotations too, and checks
//     the deprecated [[sycl::vec_type_hint(T)]];
//   - applies these attributes also where SYCL 2020 writes them on lambdas, after the parameter
//     list, which C++ gives to the call operator's type (position_filter);
//   - resolves the tokens `automatic` and `primary` where nothing else declares them, so that
//     named_sub_group_size's argument parses (clang lets plugins take expressions only);
//   - at the end of the translation unit writes what syclone++ needs to a file
//     (-fplugin-arg-syclone-out=<file>): each kernel's required sub-group size (from the
//     attributes of its functor, from a sub_group_size property, which the SYCL headers expose
//     through sycl::detail::kernel_sub_group_requirement, or the translation unit's default,
//     -fplugin-arg-syclone-default=<N|primary|automatic>), and the sub-group size of each
//     SYCL_EXTERNAL function the translation unit defines or calls, and each kernel's SYCL 2020
//     kernel attributes (device_has over the kernel's static call graph).
// Lines of the file: "kernel <unique stable name> <size>", "define <symbol> <size>",
// "declare <symbol> <size>", where <size> is a number, "primary" or "automatic";
// "reqd_work_group_size <kernel> <d0> [<d1> [<d2>]]", "work_group_size_hint <kernel> ...",
// "device_has <kernel> <aspect value>... end".
#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Mangle.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/DiagnosticSema.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendPluginRegistry.h>
#include <clang/Sema/ExternalSemaSource.h>
#include <clang/Sema/Lookup.h>
#include <clang/Sema/ParsedAttr.h>
#include <clang/Sema/ScopeInfo.h>
#include <clang/Sema/Sema.h>
#include <clang/Sema/SemaConsumer.h>
#include <llvm/Config/abi-breaking.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace {

constexpr llvm::StringLiteral annotation = "syclone.sub_group_size";
// The values of the named sizes, as in include/sycl/detail/kernel_launch.hpp.
constexpr std::uint32_t size_primary = 0xffffffffu;
constexpr std::uint32_t size_automatic = 0xfffffffeu;
// Marks a size from SYCL 2020's [[sycl::reqd_sub_group_size(N)]] (SYCLONE_SUB_GROUP_SIZE_CORE in
// include/sycl/detail/kernel_info.hpp): any positive N compiles, and a device without that size
// rejects the kernel at submission with errc::kernel_not_supported (SYCL 2020 5.8.1).
constexpr std::uint32_t size_core = 0x40000000u;
// A kernel that states no size, compiled without -fsycl-default-sub-group-size: it runs with the
// primary size (seed 004), and SYCL 2020's compile_sub_group_size reports 0 for it.
constexpr std::uint32_t size_unstated = 0xfffffffdu;

std::string size_text(std::uint32_t size) {
  if (size == size_primary) return "primary";
  if (size == size_automatic) return "automatic";
  if (size == size_unstated) return "unstated";
  if (size & size_core) return "sycl:" + std::to_string(size & ~size_core);
  return std::to_string(size);
}

// This plugin's attribute descriptions (the diagnostics of a lambda's function-type position name
// them; see position_filter).
std::set<const ParsedAttrInfo*>& own_infos() {
  static std::set<const ParsedAttrInfo*> infos;
  return infos;
}

// The implicit declarations that `automatic` and `primary` resolve to.
VarDecl* g_named[2] = {nullptr, nullptr};

bool appertains_to_function(Sema& S, const ParsedAttr& attr, const Decl* D) {
  if (isa<FunctionDecl>(D) || isa<FunctionTemplateDecl>(D)) return true;
  S.Diag(attr.getLoc(),
         S.getDiagnostics().getCustomDiagID(
             DiagnosticsEngine::Error,
             "'%0' applies to kernel functions, lambdas and SYCL_EXTERNAL functions"))
      << attr.getAttrName()->getName();
  return false;
}

// The size an attribute already recorded on D, if any.
std::optional<std::uint32_t> recorded_size(const Decl* D) {
  for (const auto* a : D->specific_attrs<AnnotateAttr>()) {
    // One argument, the size; a second marks the SYCL 2020 spelling.
    if (a->getAnnotation() != annotation || a->args_size() < 1) continue;
    const Expr* e = *a->args_begin();
    if (e->isValueDependent()) return std::nullopt;
    if (auto v = e->getIntegerConstantExpr(D->getASTContext()))
      return static_cast<std::uint32_t>(v->getZExtValue()) | (a->args_size() == 2 ? size_core : 0);
  }
  return std::nullopt;
}

bool has_size_annotation(const Decl* D) {
  for (const auto* a : D->specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == annotation) return true;
  return false;
}

// The argument of a numeric size attribute as an expression. clang hands a plugin attribute's
// argument that is a lone identifier (`reqd_sub_group_size(SIZE)` with SIZE a template parameter
// or a constant) over as an identifier, not as an expression: look it up where the attribute is.
Expr* size_argument(Sema& S, const ParsedAttr& attr, unsigned i = 0) {
  if (!attr.isArgIdent(i)) return attr.getArgAsExpr(i);
  IdentifierLoc* ident = attr.getArgAsIdent(i);
  CXXScopeSpec scope;
  UnqualifiedId name;
  name.setIdentifier(ident->getIdentifierInfo(), ident->getLoc());
  ExprResult found = S.ActOnIdExpression(S.getCurScope(), scope, SourceLocation(), name,
                                         /*HasTrailingLParen=*/false, /*IsAddressOfOperand=*/false);
  if (found.isInvalid()) return nullptr; // clang has reported the unknown name
  return found.get();
}

// [[sycl::reqd_sub_group_size(N)]], [[intel::sub_group_size(N)]], [[intel::reqd_sub_group_size(N)]]
struct numeric_size_attr : ParsedAttrInfo {
  // The unscoped C++11 spellings make clang parse the arguments of the scoped ones: it looks up
  // a plugin attribute's arguments by the name without its scope.
  static constexpr Spelling spellings[] = {{ParsedAttr::AS_CXX11, "sycl::reqd_sub_group_size"},
                                           {ParsedAttr::AS_CXX11, "intel::sub_group_size"},
                                           {ParsedAttr::AS_CXX11, "intel::reqd_sub_group_size"},
                                           {ParsedAttr::AS_CXX11, "reqd_sub_group_size"},
                                           {ParsedAttr::AS_CXX11, "sub_group_size"},
                                           {ParsedAttr::AS_GNU, "reqd_sub_group_size"}};
  numeric_size_attr() {
    NumArgs = 1;
    Spellings = spellings;
    own_infos().insert(this);
  }
  bool diagAppertainsToDecl(Sema& S, const ParsedAttr& attr, const Decl* D) const override {
    return appertains_to_function(S, attr, D);
  }
  AttrHandling handleDeclAttribute(Sema& S, Decl* D, const ParsedAttr& attr) const override {
    Expr* arg = size_argument(S, attr);
    if (!arg) return AttributeNotApplied;
    // SYCL 2020 5.8.1: [[sycl::reqd_sub_group_size(N)]] with an N no device supports compiles;
    // the submission throws errc::kernel_not_supported. Seed 004's intel:: spellings take
    // powers of two.
    bool core = attr.getScopeName() && attr.getScopeName()->getName() == "sycl";
    if (core && !arg->isValueDependent()) {
      auto value = arg->getIntegerConstantExpr(S.Context);
      if (!value || value->isNegative() || value->getZExtValue() == 0 ||
          value->getZExtValue() >= size_core) {
        S.Diag(attr.getLoc(), S.getDiagnostics().getCustomDiagID(
                                  DiagnosticsEngine::Error,
                                  "the argument of '%0' must be a positive integral constant "
                                  "expression (SYCL 2020 5.8.1)"))
            << attr.getAttrName()->getName() << arg->getSourceRange();
        return AttributeNotApplied;
      }
    } else if (!arg->isValueDependent()) {
      auto value = arg->getIntegerConstantExpr(S.Context);
      if (!value || value->isNegative() || value->getZExtValue() == 0 ||
          value->getZExtValue() > (1u << 29) || !value->isPowerOf2()) {
        S.Diag(attr.getLoc(),
               S.getDiagnostics().getCustomDiagID(
                   DiagnosticsEngine::Error,
                   "the argument of '%0' must be an integral constant expression with a power of "
                   "two as value (seed 004: sub-group sizes are powers of 2)"))
            << attr.getAttrName()->getName() << arg->getSourceRange();
        return AttributeNotApplied;
      }
    }
    if (has_size_annotation(D)) {
      S.Diag(attr.getLoc(),
             S.getDiagnostics().getCustomDiagID(
                 DiagnosticsEngine::Error,
                 "only one sub-group size attribute may appear on a kernel or SYCL_EXTERNAL "
                 "function (seed 004)"));
      return AttributeNotApplied;
    }
    llvm::SmallVector<Expr*, 2> args{arg};
    if (core)
      args.push_back(
          IntegerLiteral::Create(S.Context, llvm::APInt(32, 1), S.Context.IntTy, attr.getLoc()));
    if (Attr* a = S.CreateAnnotationAttr(attr, annotation, args)) D->addAttr(a);
    return AttributeApplied;
  }
};

// [[intel::named_sub_group_size(automatic|primary)]]
struct named_size_attr : ParsedAttrInfo {
  static constexpr Spelling spellings[] = {{ParsedAttr::AS_CXX11, "intel::named_sub_group_size"},
                                           {ParsedAttr::AS_CXX11, "named_sub_group_size"},
                                           {ParsedAttr::AS_GNU, "named_sub_group_size"}};
  named_size_attr() {
    NumArgs = 1;
    Spellings = spellings;
    own_infos().insert(this);
  }
  bool diagAppertainsToDecl(Sema& S, const ParsedAttr& attr, const Decl* D) const override {
    return appertains_to_function(S, attr, D);
  }
  AttrHandling handleDeclAttribute(Sema& S, Decl* D, const ParsedAttr& attr) const override {
    // The token arrives as an identifier argument, or as an expression naming the declaration
    // named_sizes_source made up for it.
    std::optional<std::uint32_t> size;
    Expr* arg = nullptr;
    StringRef token;
    if (attr.isArgIdent(0)) {
      token = attr.getArgAsIdent(0)->getIdentifierInfo()->getName();
    } else if ((arg = attr.getArgAsExpr(0))) {
      if (const auto* ref = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts()))
        if (ref->getDecl() == g_named[0] || ref->getDecl() == g_named[1])
          token = ref->getDecl()->getName();
    }
    if (token == "automatic") size = size_automatic;
    if (token == "primary") size = size_primary;
    if (!size) {
      S.Diag(attr.getLoc(), S.getDiagnostics().getCustomDiagID(
                                DiagnosticsEngine::Error,
                                "the argument of 'named_sub_group_size' must be 'automatic' or "
                                "'primary' (seed 004)"));
      return AttributeNotApplied;
    }
    if (has_size_annotation(D)) {
      S.Diag(attr.getLoc(),
             S.getDiagnostics().getCustomDiagID(
                 DiagnosticsEngine::Error,
                 "only one sub-group size attribute may appear on a kernel or SYCL_EXTERNAL "
                 "function (seed 004)"));
      return AttributeNotApplied;
    }
    Expr* value = IntegerLiteral::Create(S.Context, llvm::APInt(32, *size), S.Context.UnsignedIntTy,
                                         attr.getLoc());
    if (Attr* a = S.CreateAnnotationAttr(attr, annotation, {value})) D->addAttr(a);
    return AttributeApplied;
  }
};

// SYCL 2020 5.8.1's kernel attributes [[sycl::reqd_work_group_size(dim0[, dim1[, dim2]])]],
// [[sycl::work_group_size_hint(dim0[, dim1[, dim2]])]] and [[sycl::device_has(aspect, ...)]],
// recorded as `annotate("syclone.<name>", args...)` (which template instantiation substitutes).
// [[sycl::vec_type_hint(T)]] (deprecated in SYCL 2020) is vec_type_hint below.
constexpr llvm::StringLiteral reqd_wg_annotation = "syclone.reqd_work_group_size";
constexpr llvm::StringLiteral wg_hint_annotation = "syclone.work_group_size_hint";
constexpr llvm::StringLiteral device_has_annotation = "syclone.device_has";

struct kernel_attr : ParsedAttrInfo {
  bool diagAppertainsToDecl(Sema& S, const ParsedAttr& attr, const Decl* D) const override {
    return appertains_to_function(S, attr, D);
  }
};

struct work_group_attr : kernel_attr {
  static constexpr Spelling spellings[] = {{ParsedAttr::AS_CXX11, "sycl::reqd_work_group_size"},
                                           {ParsedAttr::AS_CXX11, "reqd_work_group_size"},
                                           {ParsedAttr::AS_CXX11, "sycl::work_group_size_hint"},
                                           {ParsedAttr::AS_CXX11, "work_group_size_hint"}};
  work_group_attr() {
    NumArgs = 1;
    OptArgs = 2;
    Spellings = spellings;
    own_infos().insert(this);
  }
  AttrHandling handleDeclAttribute(Sema& S, Decl* D, const ParsedAttr& attr) const override {
    bool hint = attr.getAttrName()->getName() == "work_group_size_hint";
    StringRef name = hint ? "work_group_size_hint" : "reqd_work_group_size";
    unsigned n = attr.getNumArgs();
    if (n < 1 || n > 3) {
      S.Diag(attr.getLoc(), S.getDiagnostics().getCustomDiagID(
                                DiagnosticsEngine::Error,
                                "'%0' takes one, two or three work-group dimensions (SYCL 2020 "
                                "5.8.1)"))
          << name;
      return AttributeNotApplied;
    }
    llvm::SmallVector<Expr*, 3> args;
    for (unsigned i = 0; i < n; ++i) {
      Expr* arg = size_argument(S, attr, i);
      if (!arg) return AttributeNotApplied;
      if (!arg->isValueDependent() && !arg->isTypeDependent()) {
        auto value = arg->getIntegerConstantExpr(S.Context);
        if (!value || value->isNegative() || value->isZero()) {
          S.Diag(arg->getExprLoc(), S.getDiagnostics().getCustomDiagID(
                                        DiagnosticsEngine::Error,
                                        "the arguments of '%0' must be positive integral constant "
                                        "expressions (SYCL 2020 5.8.1)"))
              << name << arg->getSourceRange();
          return AttributeNotApplied;
        }
      }
      args.push_back(arg);
    }
    StringRef annotation = hint ? wg_hint_annotation : reqd_wg_annotation;
    for (const auto* a : D->specific_attrs<AnnotateAttr>())
      if (a->getAnnotation() == annotation) {
        S.Diag(attr.getLoc(),
               S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error,
                                                  "'%0' appears twice on the same function"))
            << name;
        return AttributeNotApplied;
      }
    if (Attr* a = S.CreateAnnotationAttr(attr, annotation, args)) D->addAttr(a);
    return AttributeApplied;
  }
};

struct device_has_attr : kernel_attr {
  static constexpr Spelling spellings[] = {{ParsedAttr::AS_CXX11, "sycl::device_has"},
                                           {ParsedAttr::AS_CXX11, "device_has"}};
  device_has_attr() {
    NumArgs = 0;
    OptArgs = 15;
    Spellings = spellings;
    own_infos().insert(this);
  }
  AttrHandling handleDeclAttribute(Sema& S, Decl* D, const ParsedAttr& attr) const override {
    llvm::SmallVector<Expr*, 4> args;
    for (unsigned i = 0; i < attr.getNumArgs(); ++i) {
      Expr* arg = size_argument(S, attr, i);
      if (!arg) return AttributeNotApplied;
      if (!arg->isTypeDependent()) {
        const auto* type = arg->getType()->getAs<EnumType>();
        const EnumDecl* e = type ? type->getDecl() : nullptr;
        if (!e || e->getName() != "aspect") {
          S.Diag(arg->getExprLoc(),
                 S.getDiagnostics().getCustomDiagID(
                     DiagnosticsEngine::Error,
                     "the arguments of 'device_has' must be sycl::aspect values (SYCL 2020 5.8.1)"))
              << arg->getSourceRange();
          return AttributeNotApplied;
        }
      }
      args.push_back(arg);
    }
    // The first argument counts the aspects: an annotation always has arguments (clang 22 emits
    // an argument-less annotation of a device compile with a pointer of the wrong address space,
    // which the IR reader rejects), and device_has() records an empty list.
    args.insert(args.begin(), IntegerLiteral::Create(S.Context, llvm::APInt(32, args.size()),
                                                     S.Context.IntTy, attr.getLoc()));
    if (Attr* a = S.CreateAnnotationAttr(attr, device_has_annotation, args)) D->addAttr(a);
    return AttributeApplied;
  }
};

// [[sycl::vec_type_hint(T)]] (SYCL 2020 5.8.1, deprecated): a hint that the kernel's computation
// suits vectors of T, with no observable effect, so it is checked and accepted. clang parses its
// argument as a type because clang's own OpenCL attribute of that name takes one (the parser
// decides by the attribute's name).
struct vec_type_hint_attr : kernel_attr {
  static constexpr Spelling spellings[] = {{ParsedAttr::AS_CXX11, "sycl::vec_type_hint"},
                                           {ParsedAttr::AS_CXX11, "vec_type_hint"}};
  vec_type_hint_attr() {
    NumArgs = 0;
    OptArgs = 0;
    HasCustomParsing = 1; // the argument is a type, not an expression
    Spellings = spellings;
    own_infos().insert(this);
  }
  AttrHandling handleDeclAttribute(Sema& S, Decl*, const ParsedAttr& attr) const override {
    // A lone identifier (`vec_type_hint(T)`) reaches a plugin attribute as an identifier
    // argument; anything longer (`vec_type_hint(sycl::float4)`) as the parsed type.
    QualType type;
    if (attr.hasParsedType() && attr.getNumArgs() == 0) {
      type = Sema::GetTypeFromParser(attr.getTypeArg());
    } else if (attr.getNumArgs() == 1 && attr.isArgIdent(0)) {
      IdentifierLoc* ident = attr.getArgAsIdent(0);
      ParsedType parsed =
          S.getTypeName(*ident->getIdentifierInfo(), ident->getLoc(), S.getCurScope());
      if (!parsed) {
        S.Diag(ident->getLoc(),
               S.getDiagnostics().getCustomDiagID(
                   DiagnosticsEngine::Error, "'vec_type_hint' takes a type; '%0' names no type"))
            << ident->getIdentifierInfo()->getName();
        return AttributeNotApplied;
      }
      type = Sema::GetTypeFromParser(parsed);
    } else {
      S.Diag(attr.getLoc(), S.getDiagnostics().getCustomDiagID(
                                DiagnosticsEngine::Error,
                                "'vec_type_hint' takes one type argument, a scalar type or a "
                                "sycl::vec (SYCL 2020 5.8.1)"));
      return AttributeNotApplied;
    }
    if (type.isNull()) return AttributeNotApplied;
    if (!type->isDependentType() && !vector_hint_type(type)) {
      S.Diag(attr.getLoc(), S.getDiagnostics().getCustomDiagID(
                                DiagnosticsEngine::Error,
                                "'vec_type_hint' takes a scalar arithmetic type or a sycl::vec, "
                                "not %0 (SYCL 2020 5.8.1)"))
          << type;
      return AttributeNotApplied;
    }
    return AttributeApplied;
  }

private:
  static bool vector_hint_type(QualType type) {
    type = type.getCanonicalType().getUnqualifiedType();
    if (type->isArithmeticType() && !type->isEnumeralType()) return true;
    const CXXRecordDecl* record = type->getAsCXXRecordDecl();
    if (!record) return false;
    const auto* inst = dyn_cast<ClassTemplateSpecializationDecl>(record);
    if (!inst || inst->getName() != "vec") return false;
    const DeclContext* ns = inst->getSpecializedTemplate()->getDeclContext();
    while (ns && !ns->isFileContext()) ns = ns->getParent();
    for (; ns && isa<NamespaceDecl>(ns); ns = ns->getParent())
      if (cast<NamespaceDecl>(ns)->getName() == "sycl" && ns->getParent()->isTranslationUnit())
        return true;
    return false;
  }
};

ParsedAttrInfoRegistry::Add<work_group_attr> g_work_group("syclone-work-group-size",
                                                          "SYCL 2020 work-group size attributes");
ParsedAttrInfoRegistry::Add<device_has_attr> g_device_has("syclone-device-has",
                                                          "SYCL 2020 device_has");
ParsedAttrInfoRegistry::Add<vec_type_hint_attr> g_vec_type_hint("syclone-vec-type-hint",
                                                                "SYCL 2020 vec_type_hint");

ParsedAttrInfoRegistry::Add<numeric_size_attr> g_numeric("syclone-sub-group-size",
                                                         "seed 004 sub-group size attributes");
ParsedAttrInfoRegistry::Add<named_size_attr> g_named_attr("syclone-named-sub-group-size",
                                                          "seed 004 named sub-group sizes");

// Last-resort lookup of `automatic` and `primary`: only where unqualified lookup found nothing.
class named_sizes_source : public ExternalSemaSource {
public:
  explicit named_sizes_source(ASTContext& ctx) : m_ctx(ctx) {}
  bool LookupUnqualified(LookupResult& R, Scope*) override {
    if (R.getLookupKind() != Sema::LookupOrdinaryName || !R.getLookupName().isIdentifier())
      return false;
    StringRef name = R.getLookupName().getAsIdentifierInfo()->getName();
    int which = name == "automatic" ? 0 : name == "primary" ? 1 : -1;
    if (which < 0) return false;
    if (!g_named[which]) {
      QualType type = m_ctx.UnsignedIntTy.withConst();
      auto* var = VarDecl::Create(m_ctx, m_ctx.getTranslationUnitDecl(), SourceLocation(),
                                  SourceLocation(), &m_ctx.Idents.get(name), type,
                                  m_ctx.getTrivialTypeSourceInfo(type), SC_Static);
      var->setConstexpr(true);
      var->setImplicit(true);
      llvm::APInt value(32, which == 0 ? size_automatic : size_primary);
      var->setInit(IntegerLiteral::Create(m_ctx, value, m_ctx.UnsignedIntTy, SourceLocation()));
      g_named[which] = var;
    }
    R.addDecl(g_named[which]);
    return true;
  }

private:
  ASTContext& m_ctx;
};

// C++ gives an attribute-specifier-seq after a lambda's parameter list to the call operator's
// *type* ([expr.prim.lambda.closure]); SYCL 2020 5.8.1 writes kernel attributes there
// (`[](sycl::nd_item<1>) [[sycl::reqd_work_group_size(8)]] {}`) and means the call operator.
// clang 22 has no hook for a plugin attribute in a type position: processTypeAttrs (SemaType.cpp)
// reports every [[...]] attribute that is no type attribute with err_attribute_not_type_attr,
// passing the ParsedAttr itself as argument 0, and it does so while Sema builds the lambda's call
// operator type (getLambdaType), when Sema::getCurLambda()->CallOperator exists and has no type
// yet. The plugin maps that diagnostic to a remark (so that it is no error yet), receives it here,
// and applies its own attributes to the lambda's call operator, as clang does with attributes
// before the parameter list; every other case it reports as the error clang gives.
class position_filter : public DiagnosticConsumer {
public:
  position_filter(Sema& S, DiagnosticConsumer* next, std::unique_ptr<DiagnosticConsumer> owned)
      : m_sema(S), m_next(next), m_owned(std::move(owned)) {}

  void BeginSourceFile(const LangOptions& options, const Preprocessor* pp) override {
    m_next->BeginSourceFile(options, pp);
  }
  void EndSourceFile() override { m_next->EndSourceFile(); }
  void finish() override { m_next->finish(); }
  void clear() override {
    DiagnosticConsumer::clear();
    m_next->clear();
  }
  bool IncludeInDiagnosticCounts() const override { return m_next->IncludeInDiagnosticCounts(); }

  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    if (info.getID() == diag::err_attribute_not_type_attr) {
      type_position(info);
      return;
    }
    DiagnosticConsumer::HandleDiagnostic(level, info);
    m_next->HandleDiagnostic(level, info);
  }

private:
  void type_position(const Diagnostic& info) {
    const ParsedAttr* attr = nullptr;
    if (info.getNumArgs() > 0 && info.getArgKind(0) == DiagnosticsEngine::ak_attr_info) {
      const auto* common = reinterpret_cast<const AttributeCommonInfo*>(info.getRawArg(0));
      // processTypeAttrs streams the ParsedAttr; clang knows none of this plugin's spellings.
      if (common && common->getParsedKind() == AttributeCommonInfo::UnknownAttribute)
        attr = static_cast<const ParsedAttr*>(common);
    }
    if (attr && own_infos().count(&attr->getInfo())) {
      sema::LambdaScopeInfo* lambda = m_sema.getCurLambda();
      if (lambda && lambda->CallOperator && !lambda->CallOperator->getTypeSourceInfo()) {
        attr->getInfo().handleDeclAttribute(m_sema, lambda->CallOperator, *attr);
        return;
      }
    }
    llvm::SmallString<128> text;
    info.FormatDiagnostic(text);
    m_sema.Diag(info.getLocation(),
                m_sema.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0"))
        << text.str();
  }

  Sema& m_sema;
  DiagnosticConsumer* m_next;
  std::unique_ptr<DiagnosticConsumer> m_owned;
};

struct records {
  std::map<std::string, std::uint32_t> kernels;
  // kernel -> "<annotation> <values...>" lines of its SYCL 2020 5.8.1 attributes
  std::map<std::string, std::vector<std::string>> attributes;
  std::map<std::string, std::set<std::string>> reads; // kernel -> specialization constants
  std::map<std::string, std::uint32_t> defined, declared;
};

class consumer : public SemaConsumer {
public:
  consumer(std::string out, std::uint32_t default_size, bool default_given)
      : m_out(std::move(out)), m_default(default_size), m_default_given(default_given) {}

  void InitializeSema(Sema& S) override {
    m_sema = &S;
    S.addExternalSource(llvm::makeIntrusiveRefCnt<named_sizes_source>(S.getASTContext()));
#if !LLVM_ENABLE_ABI_BREAKING_CHECKS
    // An LLVM built with assertions (and so ABI-breaking checks) asserts that no error is mapped
    // to a lower severity; there the lambda position stays clang's error.
    DiagnosticsEngine& diags = S.getDiagnostics();
    diags.setSeverity(diag::err_attribute_not_type_attr, diag::Severity::Remark, SourceLocation());
    DiagnosticConsumer* next = diags.getClient();
    std::unique_ptr<DiagnosticConsumer> owned = diags.takeClient();
    diags.setClient(new position_filter(S, next, std::move(owned)), /*ShouldOwnClient=*/true);
#endif
  }

  void HandleTranslationUnit(ASTContext& ctx) override {
    if (!m_sema || ctx.getDiagnostics().hasErrorOccurred()) return;
    records r;
    collect_kernels(ctx, r);
    collect_externals(ctx, r);
    if (m_out.empty()) return;
    std::error_code ec;
    llvm::raw_fd_ostream file(m_out, ec);
    if (ec) {
      ctx.getDiagnostics().Report(ctx.getDiagnostics().getCustomDiagID(
          DiagnosticsEngine::Error, "syclone plugin: cannot write %0: %1"))
          << m_out << ec.message();
      return;
    }
    for (const auto& [name, size] : r.kernels)
      file << "kernel " << name << " " << size_text(size) << "\n";
    for (const auto& [name, size] : r.defined)
      file << "define " << name << " " << size_text(size) << "\n";
    for (const auto& [name, size] : r.declared)
      file << "declare " << name << " " << size_text(size) << "\n";
    for (const auto& [kernel, names] : r.reads)
      for (const auto& name : names) file << "reads " << kernel << " " << name << "\n";
    for (const auto& [kernel, lines] : r.attributes)
      for (const auto& line : lines)
        file << line.substr(0, line.find(' ')) << " " << kernel << line.substr(line.find(' '))
             << "\n";
  }

private:
  // The size attribute on a functor's call operator(s).
  std::optional<std::uint32_t> functor_size(const CXXRecordDecl* functor, SourceLocation& where) {
    if (!functor) return std::nullopt;
    for (const auto* method : functor->methods()) {
      if (method->getOverloadedOperator() != OO_Call) continue;
      const Decl* decls[] = {
          method,
          method->getPrimaryTemplate() ? method->getPrimaryTemplate()->getTemplatedDecl() : nullptr,
          method->getTemplateInstantiationPattern()};
      for (const Decl* d : decls)
        if (d)
          if (auto size = recorded_size(d)) {
            where = d->getLocation();
            return size;
          }
    }
    // Generic lambdas: the call operator template's pattern.
    if (functor->isLambda())
      if (const auto* tmpl = functor->getDependentLambdaCallOperator())
        if (auto size = recorded_size(tmpl->getTemplatedDecl())) {
          where = tmpl->getLocation();
          return size;
        }
    return std::nullopt;
  }

  // The call operators of a kernel functor that the program calls: the kernel invokes one of
  // them (a functor may have several, e.g. for nd_item<1> and group<1>); all when none is used.
  static std::vector<const FunctionDecl*> called_operators(const CXXRecordDecl* functor) {
    std::vector<const FunctionDecl*> used, all;
    if (!functor) return used;
    auto note = [&](const FunctionDecl* f) {
      all.push_back(f);
      if (f->isUsed(false)) used.push_back(f);
    };
    for (const Decl* d : functor->decls()) {
      if (const auto* method = dyn_cast<CXXMethodDecl>(d)) {
        if (method->getOverloadedOperator() == OO_Call) note(method);
      } else if (const auto* tmpl = dyn_cast<FunctionTemplateDecl>(d)) {
        if (tmpl->getTemplatedDecl()->getOverloadedOperator() != OO_Call) continue;
        for (const FunctionDecl* spec : tmpl->specializations()) note(spec);
      }
    }
    return used.empty() ? all : used;
  }

  // The values of an annotation's arguments, or nothing when one is not a constant yet.
  static std::optional<std::vector<std::uint64_t>> annotation_values(ASTContext& ctx,
                                                                     const AnnotateAttr* a) {
    std::vector<std::uint64_t> values;
    for (const Expr* e : a->args()) {
      Expr::EvalResult value;
      if (e->isValueDependent() || !e->EvaluateAsRValue(value, ctx) || !value.Val.isInt())
        return std::nullopt;
      values.push_back(value.Val.getInt().getZExtValue());
    }
    return values;
  }

  // SYCL 2020 5.8.1 attributes of a kernel, as "<kind> <values...>" lines (kind:
  // reqd_work_group_size, work_group_size_hint: sizes in SYCL dimension order, from the call
  // operator the kernel invokes; device_has: the sycl::aspect values of every device_has in the
  // kernel's static call graph (SYCL 2020 5.7: a kernel calling a function declared
  // device_has(X) needs X), followed by "end").
  static std::vector<std::string> kernel_attributes(ASTContext& ctx, const CXXRecordDecl* functor) {
    std::vector<std::string> lines;
    std::vector<const FunctionDecl*> operators = called_operators(functor);
    for (StringRef annotation : {reqd_wg_annotation, wg_hint_annotation}) {
      bool done = false;
      for (const FunctionDecl* op : operators) {
        for (const auto* a : op->specific_attrs<AnnotateAttr>()) {
          if (a->getAnnotation() != annotation) continue;
          auto values = annotation_values(ctx, a);
          if (!values) continue;
          std::string line = annotation.drop_front(strlen("syclone.")).str();
          for (std::uint64_t v : *values) line += " " + std::to_string(v);
          lines.push_back(line);
          done = true;
          break;
        }
        if (done) break;
      }
    }
    // device_has over the static call graph.
    struct callees : RecursiveASTVisitor<callees> {
      std::vector<const FunctionDecl*> found;
      bool VisitCallExpr(CallExpr* e) {
        if (const FunctionDecl* f = e->getDirectCallee()) found.push_back(f);
        return true;
      }
      bool VisitCXXConstructExpr(CXXConstructExpr* e) {
        found.push_back(e->getConstructor());
        return true;
      }
    };
    std::vector<const FunctionDecl*> work = operators;
    std::set<const FunctionDecl*> seen;
    std::set<std::uint64_t> aspects;
    bool any = false;
    while (!work.empty()) {
      const FunctionDecl* f = work.back();
      work.pop_back();
      if (!seen.insert(f).second) continue;
      for (const FunctionDecl* d : f->redecls())
        for (const auto* a : d->specific_attrs<AnnotateAttr>()) {
          if (a->getAnnotation() != device_has_annotation) continue;
          if (auto values = annotation_values(ctx, a); values && !values->empty()) {
            any = true; // values: the count, then the aspects
            aspects.insert(values->begin() + 1, values->end());
          }
        }
      const FunctionDecl* definition = nullptr;
      if (!f->hasBody(definition) || !definition->getBody()) continue;
      callees v;
      v.TraverseStmt(const_cast<Stmt*>(definition->getBody()));
      work.insert(work.end(), v.found.begin(), v.found.end());
    }
    if (any) {
      std::string line = "device_has";
      for (std::uint64_t a : aspects) line += " " + std::to_string(a);
      lines.push_back(line + " end");
    }
    return lines;
  }

  void collect_kernels(ASTContext& ctx, records& r) {
    const ClassTemplateDecl* requirement = find_requirement_template(ctx);
    if (!requirement) return;
    for (const ClassTemplateSpecializationDecl* spec : requirement->specializations()) {
      const TemplateArgumentList& args = spec->getTemplateArgs();
      if (args.size() != 3 || args[0].getKind() != TemplateArgument::Type ||
          args[1].getKind() != TemplateArgument::Type ||
          args[2].getKind() != TemplateArgument::Integral)
        continue;
      QualType name_type = args[0].getAsType();
      if (name_type->isDependentType() || args[1].getAsType()->isDependentType()) continue;
      std::string kernel = SYCLUniqueStableNameExpr::ComputeName(ctx, name_type);
      auto property = static_cast<std::uint32_t>(args[2].getAsIntegral().getZExtValue());
      SourceLocation where = spec->getPointOfInstantiation();
      std::optional<std::uint32_t> attribute =
          functor_size(args[1].getAsType()->getAsCXXRecordDecl(), where);
      if (property && attribute && (*attribute & ~size_core) != property) {
        ctx.getDiagnostics().Report(
            where, ctx.getDiagnostics().getCustomDiagID(
                       DiagnosticsEngine::Error,
                       "the kernel's sub-group size attribute (%0) differs from the "
                       "sub_group_size property of its launch (%1)"))
            << size_text(*attribute) << size_text(property);
        continue;
      }
      if (auto reads = spec_constants_read(ctx, args[1].getAsType()->getAsCXXRecordDecl());
          !reads.empty())
        r.reads[kernel] = std::move(reads);
      if (auto lines = kernel_attributes(ctx, args[1].getAsType()->getAsCXXRecordDecl());
          !lines.empty())
        r.attributes[kernel] = std::move(lines);
      r.kernels[kernel] = property          ? property
                          : attribute       ? *attribute
                          : m_default_given ? m_default
                                            : size_unstated;
    }
  }

  void collect_externals(ASTContext& ctx, records& r) {
    struct visitor : RecursiveASTVisitor<visitor> {
      std::set<const FunctionDecl*> functions;
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool VisitFunctionDecl(FunctionDecl* f) {
        if (f->hasAttr<SYCLExternalAttr>() && !f->isDependentContext())
          functions.insert(f->getCanonicalDecl());
        return true;
      }
    } v;
    v.TraverseDecl(ctx.getTranslationUnitDecl());
    if (v.functions.empty()) return;
    std::unique_ptr<MangleContext> mangle(ctx.createMangleContext());
    for (const FunctionDecl* canonical : v.functions) {
      const FunctionDecl* definition = canonical->getDefinition();
      if (!definition && !canonical->isUsed() && !canonical->isReferenced()) continue;
      // The size this translation unit gives the function: an attribute on any of its
      // declarations here, else the default.
      std::optional<std::uint32_t> size;
      for (const FunctionDecl* d : canonical->redecls())
        if (auto s = recorded_size(d)) size = *s & ~size_core;
      std::string symbol;
      llvm::raw_string_ostream os(symbol);
      if (mangle->shouldMangleDeclName(canonical))
        mangle->mangleName(GlobalDecl(canonical), os);
      else
        os << canonical->getName();
      os.flush();
      (definition ? r.defined : r.declared)[symbol] = size.value_or(m_default);
    }
  }

  static const ClassTemplateDecl* find_requirement_template(ASTContext& ctx) {
    return find_detail_template(ctx, "kernel_sub_group_requirement");
  }

  static const ClassTemplateDecl* find_detail_template(ASTContext& ctx, const char* template_name) {
    const DeclContext* dc = ctx.getTranslationUnitDecl();
    for (const char* name : {"sycl", "_V1", "detail"}) {
      const NamespaceDecl* ns = nullptr;
      for (NamedDecl* d : dc->lookup(&ctx.Idents.get(name)))
        if ((ns = dyn_cast<NamespaceDecl>(d))) break;
      if (!ns) return nullptr;
      dc = ns;
    }
    for (NamedDecl* d : dc->lookup(&ctx.Idents.get(template_name)))
      if (const auto* t = dyn_cast<ClassTemplateDecl>(d)) return t->getCanonicalDecl();
    return nullptr;
  }

  static bool is_get_specialization_constant(const FunctionDecl* f) {
    const auto* method = dyn_cast<CXXMethodDecl>(f);
    if (!method || !f->getDeclName().isIdentifier() ||
        f->getName() != "get_specialization_constant")
      return false;
    const CXXRecordDecl* parent = method->getParent();
    return parent->getDeclName().isIdentifier() && parent->getName() == "kernel_handler";
  }

  // The stable names (spec_constant_tag's, as include/sycl/kernel_handler.hpp names a constant)
  // of the specialization constants a kernel reads: kernel_handler::get_specialization_constant
  // calls reachable from its functor's call operator(s). The device image records the same for
  // the device code; this serves programs built without one (-fsycl-targets=host).
  static std::set<std::string> spec_constants_read(ASTContext& ctx, const CXXRecordDecl* functor) {
    std::set<std::string> names;
    const ClassTemplateDecl* tag = find_detail_template(ctx, "spec_constant_tag");
    if (!functor || !tag) return names;
    struct callees : RecursiveASTVisitor<callees> {
      std::vector<const FunctionDecl*> found;
      bool VisitCallExpr(CallExpr* e) {
        if (const FunctionDecl* f = e->getDirectCallee()) found.push_back(f);
        return true;
      }
      bool VisitCXXConstructExpr(CXXConstructExpr* e) {
        found.push_back(e->getConstructor());
        return true;
      }
    };
    std::vector<const FunctionDecl*> work;
    for (const auto* method : functor->methods())
      if (method->getOverloadedOperator() == OO_Call) work.push_back(method);
    if (functor->isLambda())
      if (const auto* generic = functor->getDependentLambdaCallOperator())
        for (const FunctionDecl* spec : generic->specializations()) work.push_back(spec);
    std::set<const FunctionDecl*> seen;
    while (!work.empty()) {
      const FunctionDecl* f = work.back();
      work.pop_back();
      if (!seen.insert(f->getCanonicalDecl()).second) continue;
      if (is_get_specialization_constant(f)) {
        const TemplateArgumentList* args = f->getTemplateSpecializationArgs();
        if (!args || args->size() < 1 || (*args)[0].getKind() != TemplateArgument::Declaration)
          continue;
        const Decl* id = (*args)[0].getAsDecl()->getCanonicalDecl();
        for (const ClassTemplateSpecializationDecl* spec : tag->specializations()) {
          const TemplateArgumentList& targs = spec->getTemplateArgs();
          if (targs.size() == 1 && targs[0].getKind() == TemplateArgument::Declaration &&
              targs[0].getAsDecl()->getCanonicalDecl() == id)
            names.insert(SYCLUniqueStableNameExpr::ComputeName(ctx, ctx.getCanonicalTagType(spec)));
        }
        continue;
      }
      const FunctionDecl* definition = nullptr;
      if (!f->hasBody(definition) || !definition->getBody()) continue;
      callees v;
      v.TraverseStmt(const_cast<Stmt*>(definition->getBody()));
      work.insert(work.end(), v.found.begin(), v.found.end());
    }
    return names;
  }

  Sema* m_sema = nullptr;
  std::string m_out;
  std::uint32_t m_default;
  bool m_default_given;
};

class action : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance&, StringRef) override {
    return std::make_unique<consumer>(m_out, m_default, m_default_given);
  }
  bool ParseArgs(const CompilerInstance& CI, const std::vector<std::string>& args) override {
    for (const auto& arg : args) {
      StringRef a(arg);
      if (a.consume_front("out=")) {
        m_out = a.str();
      } else if (a.consume_front("default=")) {
        m_default_given = true;
        if (a == "primary") {
          m_default = size_primary;
        } else if (a == "automatic") {
          m_default = size_automatic;
        } else {
          unsigned n = 0;
          if (a.getAsInteger(10, n) || n == 0 || (n & (n - 1)) != 0) {
            DiagnosticsEngine& d = CI.getDiagnostics();
            d.Report(d.getCustomDiagID(DiagnosticsEngine::Error,
                                       "-fsycl-default-sub-group-size=%0: use a power of two, "
                                       "'primary' or 'automatic'"))
                << a;
            return false;
          }
          m_default = n;
        }
      }
    }
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  std::string m_out;
  std::uint32_t m_default = size_primary; // seed 004: as if named_sub_group_size(primary)
  bool m_default_given = false;
};

FrontendPluginRegistry::Add<action> g_action("syclone", "syclone: sub-group size attributes");

} // namespace
