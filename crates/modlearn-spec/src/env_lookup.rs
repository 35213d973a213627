//! Finding the environments a spec names: `envs/` folders, and the built-in default.

use std::path::{Path, PathBuf};

use crate::env::{DEFAULT_ENV, Env, EnvError, LoadedEnv, load_env, parse_env};
use crate::load::LoadedSpec;
use crate::resolve::ResolvedScenario;

/// The built-in copy of `envs/coding-agent/env.json`, used when no `envs/` folder has it.
pub(crate) const BUILTIN_DEFAULT: &str = include_str!("../../../envs/coding-agent/env.json");

/// The built-in `coding-agent` environment (what `envs/coding-agent/env.json` holds).
pub fn default_env() -> Env {
    parse_env(BUILTIN_DEFAULT, Path::new("coding-agent/env.json")).expect("the built-in environment is valid").env
}

/// Where environments named in the spec at `spec_path` are looked for, in order:
/// `$MODLEARN_ENVS_DIR`, the `envs/` folder beside the spec's folder, and `./envs`.
pub fn env_search_dirs(spec_path: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(dir) = std::env::var_os("MODLEARN_ENVS_DIR") {
        dirs.push(PathBuf::from(dir));
    }
    // `specs/x.json` -> `envs`; a spec directly in the working directory has no folder beside.
    if let Some(root) = spec_path.parent().and_then(Path::parent) {
        let beside = root.join("envs");
        if beside.is_dir() && !dirs.contains(&beside) {
            dirs.push(beside);
        }
    }
    let here = PathBuf::from("envs");
    if !dirs.contains(&here) {
        dirs.push(here);
    }
    dirs
}

/// Loads the environment of every scenario that needs one (a script, or an `env` field) and
/// attaches it to the scenario. `coding-agent` falls back to the built-in copy when no folder
/// holds it.
pub fn attach_envs(scenarios: &mut [ResolvedScenario], spec: &LoadedSpec) -> Result<Vec<LoadedEnv>, EnvError> {
    let spec_path = spec.path.as_path();
    let dirs = env_search_dirs(spec_path);
    let mut loaded: Vec<LoadedEnv> = Vec::new();
    for scenario in scenarios.iter_mut() {
        let Some(name) = scenario.env_name().map(str::to_owned) else { continue };
        if let Some(found) = loaded.iter().find(|env| env.env.name == name) {
            scenario.environment = Some(found.env.clone());
            continue;
        }
        let candidates: Vec<PathBuf> = dirs.iter().map(|dir| dir.join(&name).join("env.json")).collect();
        let env = match candidates.iter().find(|path| path.is_file()) {
            Some(path) => load_env(path)?,
            None if name == DEFAULT_ENV => parse_env(BUILTIN_DEFAULT, Path::new("<built-in>/coding-agent/env.json"))?,
            None => {
                let own = spec.spec.evaluation.scenarios.as_ref().and_then(|list| list.get(scenario.index));
                let json_path = if own.is_some_and(|own| own.env.is_some()) {
                    format!("evaluation.scenarios[{}].env", scenario.index)
                } else {
                    "evaluation.env".to_owned()
                };
                return Err(EnvError::Missing { spec: spec_path.to_owned(), json_path, name, searched: candidates });
            }
        };
        scenario.environment = Some(env.env.clone());
        loaded.push(env);
    }
    Ok(loaded)
}
