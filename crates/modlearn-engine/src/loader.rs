//! The only way code gets into an engine: host modules and the candidate
//! file. A candidate is one file, as in Letta's harness (it copies the
//! candidate alone into its run directory), so even a file beside it is not
//! served. Everything else is refused with an error that says why, and the
//! candidate sees that error at import time.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use deno_core::error::ModuleLoaderError;
use deno_core::{
    ModuleLoadOptions, ModuleLoadReferrer, ModuleLoadResponse, ModuleLoader, ModuleSource,
    ModuleSourceCode, ModuleSpecifier, ModuleType, ResolutionKind, resolve_import,
};
use deno_error::JsErrorBox;

use crate::host_sources::{HOST_SCHEME, host_module};
use crate::transpile::{SourceKind, to_javascript};

/// Serves host modules from the binary and the candidate file.
pub(crate) struct SandboxLoader {
    /// The candidate file: the only file that can be loaded.
    root: RefCell<Option<PathBuf>>,
    /// Transpiled sources by path, so later load generations reuse them.
    cache: RefCell<HashMap<PathBuf, String>>,
    /// When set, host modules are read from this directory instead of the
    /// binary (the JS unit tests use it to reach `js/tests/`).
    host_dir: Option<PathBuf>,
}

impl SandboxLoader {
    pub(crate) fn new() -> SandboxLoader {
        SandboxLoader {
            root: RefCell::new(None),
            cache: RefCell::new(HashMap::new()),
            host_dir: None,
        }
    }

    /// A loader that reads host modules from `dir` (for the JS unit tests).
    pub(crate) fn with_host_dir(dir: PathBuf) -> SandboxLoader {
        SandboxLoader { host_dir: Some(dir), ..SandboxLoader::new() }
    }

    /// Sets the candidate file, the one file that can be loaded.
    pub(crate) fn confine_to(&self, candidate: PathBuf) {
        *self.root.borrow_mut() = Some(candidate);
    }

    /// Records an already transpiled entry file, so it is not read twice.
    pub(crate) fn prime(&self, path: PathBuf, code: String) {
        self.cache.borrow_mut().insert(path, code);
    }

    /// Whether `path` is the candidate (`Ok`); else its path relative to the
    /// candidate's directory when it is in it (`Err(Some(..))`).
    fn is_candidate(&self, path: &Path) -> Result<(), Option<PathBuf>> {
        let path = normalize(path);
        match &*self.root.borrow() {
            Some(candidate) if path == *candidate => Ok(()),
            Some(candidate) => {
                Err(candidate.parent().and_then(|dir| path.strip_prefix(dir).ok()).map(Path::to_path_buf))
            }
            None => Err(None),
        }
    }

    fn load_candidate_file(&self, specifier: &ModuleSpecifier) -> Result<ModuleSource, ModuleLoaderError> {
        let path = specifier
            .to_file_path()
            .map_err(|()| refuse(specifier.as_str(), "it is not a file"))?;
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
        let cached = self.cache.borrow().get(&path).cloned();
        let code = match cached {
            Some(code) => code,
            None => {
                let kind = SourceKind::from_path(&path).ok_or_else(|| {
                    JsErrorBox::type_error(format!(
                        "Cannot import '{}': only .js, .mjs, .ts, .mts, .tsx and .jsx files are modules",
                        path.display()
                    ))
                })?;
                let source = std::fs::read_to_string(&path).map_err(|error| {
                    JsErrorBox::type_error(format!("Cannot import '{}': {error}", path.display()))
                })?;
                let code = to_javascript(specifier, &path, kind, &source).map_err(JsErrorBox::generic)?;
                self.cache.borrow_mut().insert(path, code.clone());
                code
            }
        };
        Ok(ModuleSource::new(
            ModuleType::JavaScript,
            ModuleSourceCode::String(code.into()),
            specifier,
            None,
        ))
    }
}

impl ModuleLoader for SandboxLoader {
    fn resolve(
        &self,
        specifier: &str,
        referrer: &str,
        _kind: ResolutionKind,
    ) -> Result<ModuleSpecifier, ModuleLoaderError> {
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
            let why = if specifier.starts_with("http:") || specifier.starts_with("https:") {
                "the network is closed to mods under evaluation"
            } else if specifier.starts_with("node:") || specifier.starts_with("npm:") || specifier.starts_with("jsr:") {
                "mods may import only files beside them"
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

    fn load(
        &self,
        specifier: &ModuleSpecifier,
        _referrer: Option<&ModuleLoadReferrer>,
        _options: ModuleLoadOptions,
    ) -> ModuleLoadResponse {
        if specifier.scheme() == HOST_SCHEME {
            let name = specifier.path().trim_start_matches('/');
            if let Some(dir) = &self.host_dir {
                let result = std::fs::read_to_string(dir.join(name))
                    .map(|code| {
                        ModuleSource::new(ModuleType::JavaScript, ModuleSourceCode::String(code.into()), specifier, None)
                    })
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
        ModuleLoadResponse::Sync(self.load_candidate_file(specifier))
    }
}

fn refuse(specifier: &str, why: &str) -> ModuleLoaderError {
    JsErrorBox::type_error(format!(
        "import '{specifier}' is not available: modlearn runs mods without host access; {why}"
    ))
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
