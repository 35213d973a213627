//! `modlearn check`: pins what mod authors see.
//!
//! Every mod is loaded in its own engine under each chosen capability
//! profile; its registration surface is exercised (load, a snapshot of what
//! it registered, dispose) and recorded with its diagnostics normalised
//! (no stacks, timestamps, absolute paths or line numbers). The result is
//! compared with a snapshot file committed beside the mods, so a change to
//! the engine that alters a diagnostic, a hint or what a mod manages to
//! register shows up as a readable diff and a failing exit code.
//!
//! The pieces: [`find_mods`] (which files, in what order), [`observe`]
//! (run them), [`Snapshot`] (the file), [`compare`] and [`render_drift`]
//! (the diff), [`junit_report`] (one test case per mod and profile).
#![deny(missing_docs)]

mod diff;
mod normalise;
mod snapshot;
mod surface;
mod walk;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use modlearn_engine::EngineOptions;
use modlearn_record::junit::{TestCase, TestSuite, TestSuites};
use modlearn_types::Dialect;
use rayon::prelude::*;

pub use diff::{Change, ChangeKind, ModDrift, compare, render_drift};
pub use snapshot::{SNAPSHOT_KIND, SNAPSHOT_VERSION, Snapshot, under};
pub use surface::{CheckDiagnostic, CommandEntry, Registrations, Surface, ToolEntry, observe_surface};
pub use walk::{ModFile, find_mods, root_key};

/// The capability profiles the engine knows (`js/capabilities.js`), in the
/// order `--help` lists them.
pub const PROFILES: &[&str] = &["engine", "tui", "headless", "listener", "listener-agent", "providers-only"];

/// The profile used when none is chosen: the engine's default, which is
/// also what Letta's learning harness loads mods under.
pub const DEFAULT_PROFILE: &str = "engine";

/// Why a check could not run (bad input; exit 2 in the CLI).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// A mod path or directory could not be read.
    #[error("cannot read `{}`: {source}", path.display())]
    Input {
        /// The path.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file argument that the engine cannot load.
    #[error("`{}` is not a mod file (expected .js, .mjs, .ts or .tsx)", path.display())]
    NotAMod {
        /// The path.
        path: PathBuf,
    },
    /// A directory argument with no mod file in it.
    #[error("no mod files (.js, .mjs, .ts, .tsx) in `{}`", path.display())]
    NoMods {
        /// The directory.
        path: PathBuf,
    },
    /// A `--profile` the engine does not know.
    #[error("unknown capability profile `{name}` (--profile)")]
    UnknownProfile {
        /// The name given.
        name: String,
    },
    /// The snapshot file exists but is not a valid snapshot.
    #[error("invalid snapshot `{}` at `{at}`: {message}", path.display())]
    InvalidSnapshot {
        /// The file.
        path: PathBuf,
        /// JSON path of the problem.
        at: String,
        /// What is wrong.
        message: String,
    },
}

/// How to run the check.
#[derive(Clone, Debug)]
pub struct CheckSettings {
    /// Profiles to load every mod under (duplicates are checked once).
    pub profiles: Vec<String>,
    /// Engine limits; the profile field is overridden per profile.
    pub engine: EngineOptions,
    /// Mods checked at once.
    pub jobs: usize,
}

impl Default for CheckSettings {
    fn default() -> Self {
        Self {
            profiles: vec![DEFAULT_PROFILE.to_owned()],
            engine: EngineOptions::default(),
            jobs: std::thread::available_parallelism().map_or(1, usize::from),
        }
    }
}

/// What [`observe`] found: the current snapshot and how long each mod ×
/// profile took.
#[derive(Clone, Debug)]
pub struct Observation {
    /// The surfaces, as a snapshot.
    pub snapshot: Snapshot,
    /// Wall time per (mod key, profile).
    pub timings: BTreeMap<(String, String), Duration>,
}

/// Checks every name in `profiles` is a known profile.
pub fn validate_profiles(profiles: &[String]) -> Result<(), CheckError> {
    match profiles.iter().find(|name| !PROFILES.contains(&name.as_str())) {
        Some(name) => Err(CheckError::UnknownProfile { name: name.clone() }),
        None => Ok(()),
    }
}

/// Which host a file is written for, since `check` has no spec to say so: a Pi extension imports
/// one of Pi's packages, or uses the `pi` handle and exports no `activate`; a DSH plugin imports
/// DSH's packages, or exports `apply` and no `activate`. Everything else is a Letta mod, so
/// Letta's own files are checked as Letta checks them.
pub fn detect_dialect(source: &str) -> Dialect {
    const DSH_MARKS: &[&str] =
        &["\"@deepseek-ai/", "'@deepseek-ai/", "export function apply", "export const apply", "export async function apply"];
    const PI_IMPORTS: &[&str] = &["\"@mariozechner/pi-", "'@mariozechner/pi-", "\"@earendil-works/pi-", "'@earendil-works/pi-"];
    const PI_CALLS: &[&str] = &["pi.on(", "pi.registerTool(", "pi.registerCommand(", "pi.events.on("];
    let imports_pi = PI_IMPORTS.iter().any(|name| source.contains(name));
    let exports_activate = source.contains("function activate") || source.contains("activate =");
    if imports_pi || (!exports_activate && PI_CALLS.iter().any(|call| source.contains(call))) {
        Dialect::Pi
    } else if !exports_activate && DSH_MARKS.iter().any(|mark| source.contains(mark)) {
        Dialect::Dsh
    } else {
        Dialect::Letta
    }
}

/// Loads every mod under every profile, each in a fresh engine, in parallel.
pub fn observe(mods: &[ModFile], settings: &CheckSettings) -> Result<Observation, CheckError> {
    validate_profiles(&settings.profiles)?;
    let mut profiles = settings.profiles.clone();
    profiles.sort();
    profiles.dedup();
    let sources = mods
        .iter()
        .map(|m| std::fs::read_to_string(&m.path).map_err(|source| CheckError::Input { path: m.path.clone(), source }))
        .collect::<Result<Vec<_>, _>>()?;
    let jobs: Vec<(usize, &String)> = (0..mods.len()).flat_map(|i| profiles.iter().map(move |p| (i, p))).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(settings.jobs.max(1)).build().expect("thread pool starts");
    let results: Vec<(usize, String, Surface, Duration)> = pool.install(|| {
        jobs.par_iter()
            .map(|(index, profile)| {
                let started = Instant::now();
                let source = &sources[*index];
                let options = EngineOptions { profile: (*profile).clone(), dialect: detect_dialect(source), ..settings.engine.clone() };
                let surface = observe_surface(&mods[*index].path, source, &options);
                (*index, (*profile).clone(), surface, started.elapsed())
            })
            .collect()
    });
    let mut snapshot = Snapshot::new();
    let mut timings = BTreeMap::new();
    for (index, profile, surface, elapsed) in results {
        let key = mods[index].key.clone();
        timings.insert((key.clone(), profile.clone()), elapsed);
        snapshot.mods.entry(key).or_default().insert(profile, surface);
    }
    Ok(Observation { snapshot, timings })
}

/// JUnit XML for CI: one test case per mod × profile, failing where it
/// drifted from the snapshot (a vanished mod fails under each profile it
/// was stored with). With `accepted`, drift was written to the snapshot, so
/// every case passes and says what was accepted.
pub fn junit_report(suite_name: &str, observation: &Observation, stored: &Snapshot, drifts: &[ModDrift], accepted: bool) -> TestSuites {
    let by_key: BTreeMap<&str, &ModDrift> = drifts.iter().map(|d| (d.key(), d)).collect();
    let mut cases: Vec<(String, String, TestCase)> = Vec::new();
    for (key, profiles) in &observation.snapshot.mods {
        for profile in profiles.keys() {
            let mut case = TestCase::new(&format!("{key} [{profile}]"), class_name(key));
            if let Some(time) = observation.timings.get(&(key.clone(), profile.clone())) {
                case = case.time(time.as_secs_f64());
            }
            let problem = match by_key.get(key.as_str()) {
                Some(ModDrift::New { .. }) => Some(("new mod, not in the snapshot".to_owned(), String::new())),
                Some(ModDrift::Changed { profiles: changed, .. }) => changed.get(profile).map(|changes| {
                    let detail: String = changes.iter().map(|c| format!("{} {}\n", sign(c.kind), c.what)).collect();
                    (format!("{} change(s) from the snapshot", changes.len()), detail)
                }),
                _ => None,
            };
            cases.push((key.clone(), profile.clone(), outcome(case, problem, accepted)));
        }
    }
    for drift in drifts {
        if let ModDrift::Vanished { key } = drift {
            for profile in stored.mods.get(key).map(|p| p.keys().cloned().collect::<Vec<_>>()).unwrap_or_default() {
                let case = TestCase::new(&format!("{key} [{profile}]"), class_name(key));
                let problem = Some(("vanished: in the snapshot, no longer found".to_owned(), String::new()));
                cases.push((key.clone(), profile, outcome(case, problem, accepted)));
            }
        }
    }
    cases.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    let suite = cases.into_iter().fold(TestSuite::new(suite_name), |suite, (_, _, case)| suite.case(case));
    TestSuites::new("modlearn check").suite(suite)
}

/// CI systems group test cases by class name: the mod's directory.
fn class_name(key: &str) -> &str {
    key.rsplit_once('/').map_or(".", |(dir, _)| dir)
}

fn sign(kind: ChangeKind) -> char {
    match kind {
        ChangeKind::Added => '+',
        ChangeKind::Removed => '-',
        ChangeKind::Changed => '~',
    }
}

fn outcome(case: TestCase, problem: Option<(String, String)>, accepted: bool) -> TestCase {
    match problem {
        None => case,
        Some((message, detail)) if accepted => case.system_out(&format!("accepted into the snapshot: {message}\n{detail}")),
        Some((message, detail)) => case.failure(&message, &detail),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_list_matches_the_engine() {
        let (_, source) = modlearn_engine::HOST_MODULES.iter().find(|(f, _)| *f == "capabilities.js").expect("capabilities.js");
        let table = &source[source.find("export const PROFILES").unwrap()..];
        let table = &table[..table.find("});").unwrap()];
        // Entries of the table sit at two spaces of indentation: `  name: ...` or `  "name": ...`.
        let found: Vec<&str> = table
            .lines()
            .filter(|line| line.starts_with("  ") && !line.starts_with("   ") && line.contains(':') && !line.trim_start().starts_with("/"))
            .map(|line| line.trim().split(':').next().unwrap().trim_matches('"'))
            .collect();
        assert_eq!(found, PROFILES, "PROFILES must list js/capabilities.js's profiles, in its order");
    }

    #[test]
    fn every_profile_starts_an_engine() {
        for profile in PROFILES {
            let options = EngineOptions { profile: (*profile).to_owned(), ..Default::default() };
            assert!(modlearn_engine::Engine::new(options).is_ok(), "{profile}");
        }
    }

    #[test]
    fn unknown_profile_is_refused() {
        assert!(validate_profiles(&["engine".into(), "tui".into()]).is_ok());
        let error = validate_profiles(&["gui".into()]).unwrap_err();
        assert_eq!(error.to_string(), "unknown capability profile `gui` (--profile)");
    }
}
