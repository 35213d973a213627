//! TypeScript to JavaScript, transpile only (no type check), as Letta Code
//! loads `.ts` mods.

use deno_ast::{MediaType, ParseParams, SourceMapOption};
use deno_core::ModuleSpecifier;

/// What kind of source a candidate file holds, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// `.js`, `.mjs`: used verbatim as an ES module (CommonJS wrapped; decorators lowered).
    JavaScript,
    /// `.ts`, `.mts`: transpiled.
    TypeScript,
    /// `.tsx`, `.jsx`: transpiled, JSX to `react/jsx-runtime` calls.
    Jsx,
}

impl SourceKind {
    /// The kind for a file name, or `None` for files that are not modules.
    pub fn from_path(path: &std::path::Path) -> Option<SourceKind> {
        match path.extension()?.to_str()? {
            "js" | "mjs" => Some(SourceKind::JavaScript),
            "ts" | "mts" => Some(SourceKind::TypeScript),
            "tsx" | "jsx" => Some(SourceKind::Jsx),
            _ => None,
        }
    }

    fn media_type(self, path: &std::path::Path) -> MediaType {
        match self {
            SourceKind::JavaScript => MediaType::JavaScript,
            SourceKind::TypeScript => MediaType::TypeScript,
            SourceKind::Jsx => MediaType::from_path(path),
        }
    }
}

/// The kind Letta Code loads a candidate as: its harness copies every candidate to
/// `mods/<slug>.ts`, so JavaScript is TypeScript to it (type annotations in a `.js` answer load),
/// unless it is CommonJS, which Bun runs as CommonJS whatever the file is called.
pub(crate) fn as_letta_loads(specifier: &ModuleSpecifier, kind: SourceKind, source: &str) -> SourceKind {
    if kind == SourceKind::JavaScript && !is_commonjs(specifier, source) { SourceKind::TypeScript } else { kind }
}

/// Transpiles `source` when its kind needs it, the source map inline. The error is
/// Letta's `<file>:<line>:<col> <message>` form.
pub fn to_javascript(specifier: &ModuleSpecifier, path: &std::path::Path, kind: SourceKind, source: &str) -> Result<String, String> {
    Ok(emit(specifier, path, kind, source, SourceMapOption::Inline)?.code)
}

/// A candidate's JavaScript, and the source map of a transpiled one.
pub(crate) struct Emitted {
    pub(crate) code: String,
    pub(crate) source_map: Option<String>,
}

/// Whether Bun would run this JavaScript as CommonJS: it has no `import` or `export` and uses
/// `exports` (`module.exports = { activate }`). Only such a text pays for a parse.
fn is_commonjs(specifier: &ModuleSpecifier, source: &str) -> bool {
    if !source.contains("exports") {
        return false;
    }
    deno_ast::parse_program(ParseParams {
        specifier: specifier.clone(),
        text: source.into(),
        media_type: MediaType::JavaScript,
        capture_tokens: false,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .is_ok_and(|parsed| parsed.compute_is_script())
}

/// Whether JavaScript may use TC39 decorators or `accessor` fields, which Bun's transpiler lowers
/// in every file and QuickJS cannot parse: an `@` that starts a name after a space, a bracket
/// or a line's start. Such a file is transpiled as a TypeScript one is (a few false alarms, an
/// `@` in a string or comment, only cost the parse).
fn may_have_decorators(source: &str) -> bool {
    let bytes = source.as_bytes();
    let decorator = bytes.windows(3).any(|w| {
        matches!(w[0], b' ' | b'\t' | b'\n' | b'(' | b'{' | b';')
            && w[1] == b'@'
            && (w[2].is_ascii_alphabetic() || w[2] == b'_' || w[2] == b'$')
    });
    decorator || source.starts_with('@') || source.contains("accessor ")
}

/// A CommonJS file as the ES module Bun makes of it for an importer: `module.exports` is the
/// default export (its `default` when it is marked `__esModule`, as compilers mark theirs), and
/// its `activate` a named one (Letta looks for either). The body runs in sloppy mode, as
/// CommonJS does, through an indirect `eval` (module code is strict); the engine names evaluated
/// code after the nearest frame, the candidate's module, and the first line keeps its number,
/// so stacks still point at the candidate's own lines.
fn commonjs_as_module(source: &str) -> String {
    let body = serde_json::to_string(&format!("(function (exports, module) {{{source}\n}})")).expect("a string serialises");
    format!(
        "const __modlearnModule = {{ exports: {{}} }}; (0, eval)({body}).call(__modlearnModule.exports, __modlearnModule.exports, __modlearnModule);\n\
         const __modlearnExports = __modlearnModule.exports;\n\
         export default __modlearnExports !== null && typeof __modlearnExports === \"object\" && __modlearnExports.__esModule && \"default\" in __modlearnExports ? __modlearnExports.default : __modlearnExports;\n\
         export const activate = __modlearnExports?.activate;\n"
    )
}

/// As [`to_javascript`], with the source map apart: the engine compiles a candidate's code
/// again on every load, and the loader hands deno_core the map only when a stack asks for it.
pub(crate) fn to_javascript_mapped(
    specifier: &ModuleSpecifier,
    path: &std::path::Path,
    kind: SourceKind,
    source: &str,
) -> Result<Emitted, String> {
    emit(specifier, path, kind, source, SourceMapOption::Separate)
}

fn emit(
    specifier: &ModuleSpecifier,
    path: &std::path::Path,
    kind: SourceKind,
    source: &str,
    map: SourceMapOption,
) -> Result<Emitted, String> {
    let emitted = emit_module(specifier, path, kind, source, map)?;
    let virtual_path = specifier.to_file_path().ok();
    Ok(match virtual_path {
        Some(virtual_path) => Emitted { code: with_bun_import_meta(&emitted.code, &virtual_path), ..emitted },
        None => emitted,
    })
}

/// Bun's own `import.meta` members, which deno_core does not set (`dir`, `file`, `path`; Letta
/// mods read `import.meta.dir` to find files beside them): each read as written becomes the
/// string it holds for the mod's virtual path, and `env` the process's environment.
/// `import.meta.dirname` and the rest are left.
fn with_bun_import_meta(code: &str, path: &std::path::Path) -> String {
    const META: &str = "import.meta.";
    if !code.contains(META) {
        return code.to_owned();
    }
    let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let file = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let dir = path.parent().map(|dir| dir.to_string_lossy().into_owned()).unwrap_or_default();
    // `import.meta.env` is Bun's `process.env`, the same object.
    let members = [
        ("dir", quoted(&dir)),
        ("file", quoted(&file)),
        ("path", quoted(&path.to_string_lossy())),
        ("env", "globalThis.process.env".to_owned()),
    ];
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(META) {
        let after = &rest[at + META.len()..];
        let name_len = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')).unwrap_or(after.len());
        match members.iter().find(|(name, _)| *name == &after[..name_len]) {
            Some((_, value)) => {
                out.push_str(&rest[..at]);
                out.push_str(value);
            }
            None => out.push_str(&rest[..at + META.len() + name_len]),
        }
        rest = &after[name_len..];
    }
    out.push_str(rest);
    out
}

fn emit_module(
    specifier: &ModuleSpecifier,
    path: &std::path::Path,
    kind: SourceKind,
    source: &str,
    map: SourceMapOption,
) -> Result<Emitted, String> {
    if kind == SourceKind::JavaScript && !may_have_decorators(source) {
        let code = if is_commonjs(specifier, source) { commonjs_as_module(source) } else { source.to_owned() };
        return Ok(Emitted { code, source_map: None });
    }
    let parsed = deno_ast::parse_module(ParseParams {
        specifier: specifier.clone(),
        text: source.into(),
        media_type: kind.media_type(path),
        capture_tokens: false,
        scope_analysis: false,
        maybe_syntax: None,
    })
    .map_err(|error| diagnostic_text(path, &error))?;
    let transpiled = parsed
        .transpile(
            &deno_ast::TranspileOptions {
                // Letta's ts.transpileModule targets ES2022 without experimentalDecorators, so
                // TC39 decorators (and `accessor`) are lowered; QuickJS has neither.
                decorators: deno_ast::DecoratorsTranspileOption::Ecma,
                imports_not_used_as_values: deno_ast::ImportsNotUsedAsValues::Remove,
                jsx: Some(deno_ast::JsxRuntime::Automatic(deno_ast::JsxAutomaticOptions {
                    development: false,
                    import_source: Some("react".to_owned()),
                })),
                ..Default::default()
            },
            &deno_ast::TranspileModuleOptions { module_kind: None },
            &deno_ast::EmitOptions {
                // So that stack traces can be mapped to the candidate's own lines.
                source_map: map,
                inline_sources: false,
                ..Default::default()
            },
        )
        .map_err(|error| format!("{}: {error}", file_name(path)))?;
    let emitted = transpiled.into_source();
    Ok(Emitted { code: emitted.text, source_map: emitted.source_map })
}

fn diagnostic_text(path: &std::path::Path, error: &deno_ast::ParseDiagnostic) -> String {
    let position = error.display_position();
    format!("{}:{}:{} {}", file_name(path), position.line_number, position.column_number, error.kind().msg())
}

fn file_name(path: &std::path::Path) -> String {
    path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Transpiles a candidate file outside any engine (for tools that run the
/// same JavaScript elsewhere, such as the benchmark's Node.js baseline).
pub fn transpile_file(path: &std::path::Path, kind: SourceKind, source: &str) -> Result<String, String> {
    let absolute = std::path::absolute(path).map_err(|error| error.to_string())?;
    let specifier = ModuleSpecifier::from_file_path(&absolute).map_err(|()| format!("not a file path: {}", path.display()))?;
    to_javascript(&specifier, path, kind, source)
}

#[cfg(test)]
mod tests {
    use super::with_bun_import_meta;

    #[test]
    fn bun_import_meta_members_read_the_virtual_path() {
        let path = std::path::Path::new("/home/user/.letta/mods/notes.ts");
        let code = "const a = import.meta.dir, b = import.meta.file, c = import.meta.path, d = import.meta.dirname, e = import.meta.url;";
        assert_eq!(
            with_bun_import_meta(code, path),
            r#"const a = "/home/user/.letta/mods", b = "notes.ts", c = "/home/user/.letta/mods/notes.ts", d = import.meta.dirname, e = import.meta.url;"#
        );
        assert_eq!(with_bun_import_meta("const home = import.meta.env.HOME;", path), "const home = globalThis.process.env.HOME;");
    }
}
