//! The only way code gets into an engine: host modules, the candidate
//! file, which the Rust side hands over transpiled, and JavaScript the
//! candidate writes into a `data:` URL. Everything else is
//! refused with an error that says why, and the candidate sees that error at
//! import time; the loader never reads the disk for a candidate.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use deno_core::error::ModuleLoaderError;
use deno_core::{
    ModuleLoadOptions, ModuleLoadReferrer, ModuleLoadResponse, ModuleLoader, ModuleSource, ModuleSourceCode, ModuleSpecifier, ModuleType,
    ResolutionKind, resolve_import,
};
use deno_error::JsErrorBox;

use modlearn_types::Dialect;

use crate::host_sources::{HOST_SCHEME, host_module};

/// A candidate file as the Rust side transpiled it.
struct Primed {
    code: String,
    /// Kept apart from the code, which is compiled again on every load; deno_core asks for
    /// it when a stack names the file ([`ModuleLoader::get_source_map`]).
    source_map: Option<String>,
}

/// Serves host modules from the binary and candidate modules from the
/// candidate's own directory.
pub(crate) struct SandboxLoader {
    /// The candidate's directory; only files in it (or below) can be imported.
    root: RefCell<Option<PathBuf>>,
    /// Transpiled sources by path, so later load generations reuse them.
    cache: RefCell<HashMap<PathBuf, Primed>>,
    /// When set, host modules are read from this directory instead of the
    /// binary (the JS unit tests use it to reach `js/tests/`).
    host_dir: Option<PathBuf>,
    /// Set once the host modules are loaded: from then on no import resolves
    /// to a host module but the public ones mods may import (`node/`), so no
    /// mod can reach (or patch) the judge's own modules.
    sealed: Cell<bool>,
    /// Which host's packages a bare import may name (Pi's, for a Pi extension).
    dialect: Cell<Dialect>,
}

impl SandboxLoader {
    pub(crate) fn new() -> SandboxLoader {
        SandboxLoader {
            root: RefCell::new(None),
            cache: RefCell::new(HashMap::new()),
            host_dir: None,
            sealed: Cell::new(false),
            dialect: Cell::new(Dialect::Letta),
        }
    }

    /// A loader that reads host modules from `dir` (for the JS unit tests).
    pub(crate) fn with_host_dir(dir: PathBuf) -> SandboxLoader {
        SandboxLoader { host_dir: Some(dir), ..SandboxLoader::new() }
    }

    /// Refuses every host module from now on but the public ones.
    pub(crate) fn seal(&self) {
        self.sealed.set(true);
    }

    /// Sets the dialect whose host packages bare imports resolve to.
    pub(crate) fn set_dialect(&self, dialect: Dialect) {
        self.dialect.set(dialect);
    }

    /// Sets the candidate file, the one file that can be loaded.
    pub(crate) fn confine_to(&self, candidate: PathBuf) {
        *self.root.borrow_mut() = Some(candidate);
    }

    /// Records an already transpiled entry file, so it is not read twice, and its source map.
    pub(crate) fn prime(&self, path: PathBuf, code: String, source_map: Option<String>) {
        self.cache.borrow_mut().insert(path, Primed { code, source_map });
    }

    /// Whether `path` is the candidate (`Ok`); else its path relative to the
    /// candidate's directory when it is in it (`Err(Some(..))`).
    fn is_candidate(&self, path: &Path) -> Result<(), Option<PathBuf>> {
        let path = normalize(path);
        match &*self.root.borrow() {
            Some(candidate) if path == *candidate => Ok(()),
            Some(candidate) => Err(candidate.parent().and_then(|dir| path.strip_prefix(dir).ok()).map(Path::to_path_buf)),
            None => Err(None),
        }
    }

    fn load_candidate_file(&self, specifier: &ModuleSpecifier) -> Result<ModuleSource, ModuleLoaderError> {
        let path = specifier.to_file_path().map_err(|()| refuse(specifier.as_str(), "it is not a file"))?;
        let path = normalize(&path);
        match self.is_candidate(&path) {
            Ok(()) => {}
            // Not host access: in Letta's run directory the file is simply not there.
            Err(Some(relative)) => {
                return Err(JsErrorBox::type_error(format!(
                    "Cannot find module './{}': a candidate is one file (Letta copies only the candidate into \
                     its run directory), so files beside it cannot be imported; put their code in the candidate",
                    relative.display()
                )));
            }
            Err(None) => return Err(refuse(specifier.as_str(), "a candidate is one file and may import no other")),
        }
        // The Rust side primes the candidate's transpiled code: the disk is never read here.
        let Some(code) = self.cache.borrow().get(&path).map(|primed| primed.code.clone()) else {
            return Err(JsErrorBox::type_error(format!("Cannot find module '{}'", path.display())));
        };
        Ok(ModuleSource::new(ModuleType::JavaScript, ModuleSourceCode::String(code.into()), specifier, None))
    }
}

impl ModuleLoader for SandboxLoader {
    fn resolve(&self, specifier: &str, referrer: &str, kind: ResolutionKind) -> Result<ModuleSpecifier, ModuleLoaderError> {
        let resolved = self.resolve_unsealed(specifier, referrer, kind)?;
        // Host modules import one another statically (a public module its internals); only a
        // candidate's imports are limited to the public ones. No `import()` reaches an internal
        // module once sealed, whatever its referrer: code a mod evaluates (`eval`, `Function`)
        // from inside a host function is named after that host module, and the host itself
        // imports nothing after the seal (dialect runtimes are evaluated before it).
        let from_host = referrer.starts_with(HOST_SCHEME) && kind != ResolutionKind::DynamicImport;
        if self.sealed.get() && resolved.scheme() == HOST_SCHEME && !is_public(&resolved) && !from_host {
            return Err(refuse(specifier, "modlearn's own modules are not importable"));
        }
        Ok(resolved)
    }

    fn load(&self, specifier: &ModuleSpecifier, referrer: Option<&ModuleLoadReferrer>, options: ModuleLoadOptions) -> ModuleLoadResponse {
        // A host module (a public one a mod imported) may load the host modules it is built on,
        // by static import only (see `resolve`).
        let from_host = !options.is_dynamic_import && referrer.is_some_and(|referrer| referrer.specifier.scheme() == HOST_SCHEME);
        if self.sealed.get() && specifier.scheme() == HOST_SCHEME && !is_public(specifier) && !from_host {
            return ModuleLoadResponse::Sync(Err(refuse(specifier.as_str(), "modlearn's own modules are not importable")));
        }
        self.load_unsealed(specifier, referrer, options)
    }

    fn get_source_map(&self, file_name: &str) -> Option<Cow<'_, [u8]>> {
        // Every load generation's URL (its `?load=` query aside) names the same file.
        let path = ModuleSpecifier::parse(file_name).ok()?.to_file_path().ok()?;
        let cache = self.cache.borrow();
        let map = cache.get(&normalize(&path))?.source_map.as_ref()?;
        Some(Cow::Owned(map.as_bytes().to_vec()))
    }
}

/// Host modules mods may import: Node's built-ins as the sandbox provides them, and the
/// packages a dialect's host provides (Pi's virtual modules).
fn is_public(specifier: &ModuleSpecifier) -> bool {
    let path = specifier.path();
    specifier.scheme() == HOST_SCHEME
        && (path.starts_with("/node/") || path.starts_with("/pi/packages/") || path.starts_with("/dsh/packages/"))
}

/// The packages Pi serves to extensions (its `VIRTUAL_MODULES`), by import name: the
/// `@earendil-works` names and the `@mariozechner` ones Pi still aliases, and TypeBox 1.x under
/// both its names. pi-tui and pi-ai's providers are not served: a judge runs no terminal UI and
/// calls no provider.
const PI_PACKAGES: &[(&str, &str)] = &[
    ("@earendil-works/pi-coding-agent", "coding-agent"),
    ("@mariozechner/pi-coding-agent", "coding-agent"),
    ("@earendil-works/pi-ai", "ai"),
    ("@earendil-works/pi-ai/compat", "ai"),
    ("@mariozechner/pi-ai", "ai"),
    ("@mariozechner/pi-ai/compat", "ai"),
    ("@earendil-works/pi-agent-core", "agent-core"),
    ("@mariozechner/pi-agent-core", "agent-core"),
    ("typebox", "typebox"),
    ("typebox/compile", "typebox-compile"),
    ("typebox/value", "typebox-value"),
    ("@sinclair/typebox", "typebox"),
    ("@sinclair/typebox/compile", "typebox-compile"),
    ("@sinclair/typebox/value", "typebox-value"),
];

/// The packages DSH plugins import at run time: the Cordis core DSH vendors (under its three
/// names) and DSH's own tools, llm and schemastery modules.
const DSH_PACKAGES: &[(&str, &str)] = &[
    ("@deepseek-ai/cordis", "cordis"),
    ("cordis", "cordis"),
    ("@cordisjs/core", "cordis"),
    ("@deepseek-ai/dsh-tools", "tools"),
    ("@deepseek-ai/dsh-llm", "llm"),
    ("@deepseek-ai/schemastery", "schemastery"),
];

/// The host module a dialect's package import resolves to, if it is one of that host's.
fn dialect_package(dialect: Dialect, specifier: &str) -> Option<Result<ModuleSpecifier, ModuleLoaderError>> {
    let (dir, table) = match dialect {
        Dialect::Letta => return None,
        Dialect::Pi => ("pi", PI_PACKAGES),
        Dialect::Dsh => ("dsh", DSH_PACKAGES),
    };
    let (_, file) = table.iter().find(|(name, _)| *name == specifier)?;
    Some(ModuleSpecifier::parse(&format!("{HOST_SCHEME}:///{dir}/packages/{file}.js")).map_err(JsErrorBox::from_err))
}

impl SandboxLoader {
    fn resolve_unsealed(&self, specifier: &str, referrer: &str, _kind: ResolutionKind) -> Result<ModuleSpecifier, ModuleLoaderError> {
        let from_host = referrer.starts_with(HOST_SCHEME);
        let is_relative = specifier.starts_with("./") || specifier.starts_with("../") || specifier.starts_with('/');
        if specifier.starts_with(HOST_SCHEME) && !referrer.starts_with("file:") {
            // Loaded by the Rust side itself (no candidate referrer).
            return ModuleSpecifier::parse(specifier).map_err(JsErrorBox::from_err);
        }
        if from_host {
            // The host imports its own modules and the candidate entry (a file URL).
            return resolve_import(specifier, referrer).map_err(JsErrorBox::from_err);
        }
        if !is_relative {
            // A module written into its own URL (Bun loads these): its code is the mod's too.
            if specifier.starts_with("data:") {
                return ModuleSpecifier::parse(specifier).map_err(JsErrorBox::from_err);
            }
            if let Some(resolved) = node_builtin(specifier) {
                return resolved;
            }
            if let Some(resolved) = dialect_package(self.dialect.get(), specifier) {
                return resolved;
            }
            let why = if specifier.starts_with("http:") || specifier.starts_with("https:") {
                "the network is closed to mods under evaluation"
            } else if specifier.starts_with("node:") || specifier.starts_with("npm:") || specifier.starts_with("jsr:") {
                "a candidate is one file and may import no other"
            } else {
                "bare package imports cannot be resolved; a candidate is one file and may import no other"
            };
            return Err(refuse(specifier, why));
        }
        let mut resolved = resolve_import(specifier, referrer).map_err(JsErrorBox::from_err)?;
        // Keep the load generation's query, so each generation gets fresh module instances.
        if let Ok(referrer_url) = ModuleSpecifier::parse(referrer) {
            resolved.set_query(referrer_url.query());
        }
        if resolved.scheme() != "file" {
            return Err(refuse(specifier, "a candidate is one file and may import no other"));
        }
        Ok(resolved)
    }

    fn load_unsealed(
        &self,
        specifier: &ModuleSpecifier,
        _referrer: Option<&ModuleLoadReferrer>,
        _options: ModuleLoadOptions,
    ) -> ModuleLoadResponse {
        if specifier.scheme() == HOST_SCHEME {
            let name = specifier.path().trim_start_matches('/');
            if let Some(dir) = &self.host_dir {
                let result = std::fs::read_to_string(dir.join(name))
                    .map(|code| ModuleSource::new(ModuleType::JavaScript, ModuleSourceCode::String(code.into()), specifier, None))
                    .map_err(|error| JsErrorBox::type_error(format!("host module '{name}': {error}")));
                return ModuleLoadResponse::Sync(result);
            }
            let result = host_module(name)
                .map(|code| {
                    ModuleSource::new(
                        ModuleType::JavaScript,
                        ModuleSourceCode::String(deno_core::ModuleCodeString::from_static(code)),
                        specifier,
                        None,
                    )
                })
                .ok_or_else(|| JsErrorBox::type_error(format!("no host module '{name}'")));
            return ModuleLoadResponse::Sync(result);
        }
        if specifier.scheme() == "data" {
            return ModuleLoadResponse::Sync(data_module(specifier));
        }
        ModuleLoadResponse::Sync(self.load_candidate_file(specifier))
    }
}

/// The JavaScript module a `data:` URL holds (percent-encoded or base64), as Bun loads it.
fn data_module(specifier: &ModuleSpecifier) -> Result<ModuleSource, ModuleLoaderError> {
    let url =
        data_url::DataUrl::process(specifier.as_str()).map_err(|error| JsErrorBox::type_error(format!("invalid data: URL: {error:?}")))?;
    let mime = url.mime_type();
    let javascript = matches!(mime.type_.as_str(), "text" | "application")
        && matches!(mime.subtype.as_str(), "javascript" | "ecmascript" | "x-javascript");
    if !javascript {
        return Err(refuse(
            &format!("data:{}/{}", mime.type_, mime.subtype),
            "only JavaScript data: URLs can be imported (text/javascript)",
        ));
    }
    let (body, _) = url.decode_to_vec().map_err(|error| JsErrorBox::type_error(format!("invalid data: URL body: {error:?}")))?;
    let code = String::from_utf8(body).map_err(|_| JsErrorBox::type_error("a data: module is not UTF-8 text"))?;
    Ok(ModuleSource::new(ModuleType::JavaScript, ModuleSourceCode::String(code.into()), specifier, None))
}

/// Node's built-in modules the sandbox provides (`js/node/`), by the name after `node:`.
/// Bun resolves these with and without the `node:` prefix, so mods may write either.
const NODE_BUILTINS: &[&str] = &[
    "assert",
    "assert/strict",
    "async_hooks",
    "buffer",
    "child_process",
    "console",
    "constants",
    "crypto",
    "diagnostics_channel",
    "dns",
    "dns/promises",
    "events",
    "fs",
    "fs/promises",
    "http",
    "https",
    "module",
    "net",
    "os",
    "path",
    "path/posix",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "readline/promises",
    "stream",
    "stream/promises",
    "stream/web",
    "string_decoder",
    "timers",
    "timers/promises",
    "tty",
    "url",
    "util",
    "util/types",
    "v8",
    "vm",
    "worker_threads",
    "zlib",
];

/// Node built-ins Bun has that the sandbox does not (yet): refused with a message that says so,
/// rather than as an unknown package.
const NODE_MISSING: &[&str] = &["cluster", "dgram", "domain", "http2", "inspector", "repl", "sqlite", "test", "tls", "trace_events"];

/// The host module behind a Node built-in import (`node:path`, `path`, `node:fs/promises`), or
/// the refusal for one the sandbox lacks; `None` for anything that is not a Node built-in name.
/// These are the only host modules a mod can reach.
fn node_builtin(specifier: &str) -> Option<Result<ModuleSpecifier, ModuleLoaderError>> {
    let prefixed = specifier.strip_prefix("node:");
    let name = prefixed.unwrap_or(specifier);
    if NODE_BUILTINS.contains(&name) {
        let file = name.replace('/', "-");
        return Some(ModuleSpecifier::parse(&format!("{HOST_SCHEME}:///node/{file}.js")).map_err(JsErrorBox::from_err));
    }
    if NODE_MISSING.contains(&name) || prefixed.is_some() {
        return Some(Err(refuse(specifier, "modlearn's sandbox does not provide this Node built-in yet")));
    }
    None
}

fn refuse(specifier: &str, why: &str) -> ModuleLoaderError {
    JsErrorBox::type_error(format!("import '{specifier}' is not available: modlearn runs mods without host access; {why}"))
}

/// Resolves `.` and `..` without touching the filesystem.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::NODE_BUILTINS;

    /// `require` (js/require-table.js) gives exactly the built-ins `import` resolves.
    #[test]
    fn require_and_import_know_the_same_built_ins() {
        let table = crate::host_sources::host_module("require-table.js").expect("require-table.js is a host module");
        let start = table.find("BUILTINS = Object.freeze({").expect("the BUILTINS table");
        let names: Vec<&str> = table[start..].lines().filter_map(|line| line.trim().strip_prefix('"')?.split('"').next()).collect();
        assert_eq!(names, NODE_BUILTINS);
    }
}
