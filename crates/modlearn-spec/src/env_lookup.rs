//! Finding the environments a spec names: `envs/` folders, and the built-in default.

use std::path::{Path, PathBuf};

use modlearn_types::Dialect;

use crate::env::{DEFAULT_ENV, Env, EnvError, LoadedEnv, default_env_name, load_env, parse_env};
use crate::load::LoadedSpec;
use crate::resolve::ResolvedScenario;

/// The built-in copy of `envs/coding-agent/env.json`, used when no `envs/` folder has it.
pub(crate) const BUILTIN_DEFAULT: &str = include_str!("../../../envs/coding-agent/env.json");

/// The built-in environments, each a copy of `envs/<name>/env.json`: every dialect's default.
const BUILTIN: &[(&str, &str)] = &[
    (DEFAULT_ENV, BUILTIN_DEFAULT),
    ("pi-agent", include_str!("../../../envs/pi-agent/env.json")),
    ("dsh-agent", include_str!("../../../envs/dsh-agent/env.json")),
];

fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(builtin, _)| *builtin == name).map(|(_, source)| *source)
}

/// The built-in default environment of `dialect` (what `envs/<name>/env.json` holds).
pub fn default_env(dialect: Dialect) -> Env {
    let name = default_env_name(dialect);
    let source = builtin(name).expect("every dialect has a built-in environment");
    parse_env(source, Path::new(&format!("{name}/env.json"))).expect("the built-in environment is valid").env
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
/// attaches it to the scenario. The built-in environments (`coding-agent`, `pi-agent`,
/// `dsh-agent`) fall back to their built-in copies when no folder holds them. An environment of
/// another dialect than the spec's is an error.
pub fn attach_envs(scenarios: &mut [ResolvedScenario], spec: &LoadedSpec) -> Result<Vec<LoadedEnv>, EnvError> {
    let spec_path = spec.path.as_path();
    let dirs = env_search_dirs(spec_path);
    let mut loaded: Vec<LoadedEnv> = Vec::new();
    for scenario in scenarios.iter_mut() {
        let Some(name) = scenario.env_name().map(str::to_owned) else { continue };
        let own = spec.spec.evaluation.scenarios.as_ref().and_then(|list| list.get(scenario.index));
        let json_path = match own {
            Some(own) if own.env.is_some() => format!("evaluation.scenarios[{}].env", scenario.index),
            _ if spec.spec.evaluation.env.is_some() => "evaluation.env".to_owned(),
            Some(_) => format!("evaluation.scenarios[{}].script", scenario.index),
            None => "evaluation.script".to_owned(),
        };
        let env = match loaded.iter().find(|env| env.env.name == name) {
            Some(found) => found.env.clone(),
            None => {
                let candidates: Vec<PathBuf> = dirs.iter().map(|dir| dir.join(&name).join("env.json")).collect();
                let env = match (candidates.iter().find(|path| path.is_file()), builtin(&name)) {
                    (Some(path), _) => load_env(path)?,
                    (None, Some(source)) => parse_env(source, Path::new(&format!("<built-in>/{name}/env.json")))?,
                    (None, None) => return Err(EnvError::Missing { spec: spec_path.to_owned(), json_path, name, searched: candidates }),
                };
                loaded.push(env);
                loaded.last().expect("just pushed").env.clone()
            }
        };
        if env.dialect != scenario.dialect {
            let (env_dialect, spec_dialect) = (env.dialect, scenario.dialect);
            return Err(EnvError::WrongDialect { spec: spec_path.to_owned(), json_path, name, env_dialect, spec_dialect });
        }
        scenario.environment = Some(env);
    }
    Ok(loaded)
}
