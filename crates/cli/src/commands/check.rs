//! `modlearn check`: compare what mods show their authors with a committed
//! snapshot. The logic is in `modlearn-check`; this prints and picks the
//! exit code.

use modlearn_check::{ChangeKind, CheckError, CheckSettings, DEFAULT_PROFILE, ModDrift, Snapshot};
use serde_json::{Value, json};

use crate::cli::CheckArgs;
use crate::exit::{CliError, FAILURE, SUCCESS};

pub fn run(args: CheckArgs) -> Result<u8, CliError> {
    let base = args.snapshot.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let stored = Snapshot::read(&args.snapshot)?;
    if stored.is_none() && !args.accept {
        return Err(CliError::usage(format!("snapshot file `{}` does not exist (--snapshot)", args.snapshot.display()))
            .hint("run once with --accept to create it from what the mods show now, then commit it"));
    }
    // What the snapshot covers is what a check covers unless told otherwise.
    let inputs: Vec<std::path::PathBuf> = match (&stored, args.mods.is_empty()) {
        (_, false) => args.mods.clone(),
        (Some(stored), true) if !stored.roots.is_empty() => stored.roots.iter().map(|root| base.join(root)).collect(),
        _ => {
            return Err(CliError::usage("no MOD-OR-DIR given, and the snapshot records none")
                .hint("pass the mod files or directories to check, e.g. `modlearn check candidates --snapshot candidates/diagnostics.snapshot.json`"));
        }
    };
    let mods = modlearn_check::find_mods(&inputs, base)?;
    let mut roots: Vec<String> = inputs.iter().map(|input| modlearn_check::root_key(input, base)).collect();
    roots.sort();
    roots.dedup();
    let eval = super::engine_options(&args.engine);
    let mut profiles = args.profiles.clone();
    if profiles.is_empty() {
        profiles = stored.as_ref().map(Snapshot::covered_profiles).unwrap_or_default();
    }
    if profiles.is_empty() {
        profiles.push(DEFAULT_PROFILE.to_owned());
    }
    profiles.sort();
    profiles.dedup();
    let settings = CheckSettings { profiles: profiles.clone(), engine: eval.engine, jobs: eval.jobs };
    let mut observation = modlearn_check::observe(&mods, &settings)?;
    observation.snapshot.profiles = profiles.clone();
    observation.snapshot.roots = roots.clone();
    let existed = stored.is_some();
    let stored = stored.unwrap_or_default();
    // Only what this check covers is compared: a subdirectory's siblings have not vanished, and
    // a profile not checked has not changed.
    let scope = Scope::of(&stored, &roots, &profiles);
    let covered = stored.restricted(&roots, &profiles);
    let drifts = modlearn_check::compare(&covered, &observation.snapshot);

    let snapshot_name = args.snapshot.display().to_string();
    let summary = format!("{} mod(s) under profile(s) {}", mods.len(), profiles.join(", "));
    if args.accept
        && existed
        && let Some(partial) = &scope.partial
    {
        return Err(CliError::usage(format!("refusing to --accept a partial check of `{snapshot_name}`: {partial}"))
            .hint(format!(
                "accepting would drop from the snapshot what this check did not cover; accept on a whole check: {}",
                scope.whole_command(&snapshot_name, true)
            ))
            .hint("to drop part of a snapshot on purpose, delete the file and run with --accept on what it should cover"));
    }
    if let Some(junit) = &args.junit {
        let report = modlearn_check::junit_report(&snapshot_name, &observation, &covered, &drifts, args.accept);
        modlearn_record::write_atomic(junit, report.to_xml())?;
    }
    if args.accept {
        observation.snapshot.write(&args.snapshot)?;
        let before = if existed { format!("accepted drift in {}", drift_summary(&drifts)) } else { "a new snapshot".to_owned() };
        if args.json {
            println!("{}", json_report(&snapshot_name, mods.len(), &profiles, &drifts, true));
        } else {
            println!("wrote `{snapshot_name}`: {summary}; {before}");
        }
        return Ok(SUCCESS);
    }
    if args.json {
        println!("{}", json_report(&snapshot_name, mods.len(), &profiles, &drifts, false));
        return Ok(if drifts.is_empty() { SUCCESS } else { FAILURE });
    }
    let partial = scope.partial.as_ref().map(|partial| format!(" (a partial check: {partial})")).unwrap_or_default();
    if drifts.is_empty() {
        println!("checked {summary}: no drift from `{snapshot_name}`{partial}");
        return Ok(SUCCESS);
    }
    let color = crate::printer::color_on(crate::printer::Stream::Stdout);
    print!("{}", crate::printer::color_diff(&modlearn_check::render_drift(&drifts), color));
    println!("\ndrift from `{snapshot_name}` in {} (checked {summary}){partial}", drift_summary(&drifts));
    match &scope.partial {
        // --accept would overwrite the snapshot with a part of it.
        Some(_) => eprintln!(
            "hint: this was a partial check; if the change is intended, accept it on a whole check: {}",
            scope.whole_command(&snapshot_name, true)
        ),
        None => eprintln!("hint: if the change is intended, run again with --accept and commit `{snapshot_name}`"),
    }
    Ok(FAILURE)
}

/// How a check compares with what its snapshot covers.
struct Scope {
    /// Why the check covers only part of the snapshot, when it does.
    partial: Option<String>,
    /// Whether the snapshot records its roots (then a check without MOD-OR-DIR uses them).
    recorded_roots: bool,
    /// The snapshot's profiles.
    profiles: Vec<String>,
}

impl Scope {
    fn of(stored: &Snapshot, roots: &[String], profiles: &[String]) -> Scope {
        let stored_profiles = stored.covered_profiles();
        let mut reasons = Vec::new();
        let missing_profiles: Vec<&String> = stored_profiles.iter().filter(|profile| !profiles.contains(profile)).collect();
        if !missing_profiles.is_empty() {
            reasons.push(format!("profile(s) {} of the snapshot not checked", join(&missing_profiles)));
        }
        // Recorded roots no chosen root covers; for older snapshots, mods outside the chosen roots.
        let covered = |key: &String| roots.iter().any(|chosen| modlearn_check::under(key, chosen));
        let chosen = join(&roots.iter().collect::<Vec<_>>());
        if stored.roots.iter().any(|root| !covered(root)) {
            reasons.push(format!("{chosen} checked of the snapshot's roots {}", join(&stored.roots.iter().collect::<Vec<_>>())));
        } else if stored.roots.is_empty() {
            let outside = stored.mods.keys().filter(|key| !covered(key)).count();
            if outside > 0 {
                reasons.push(format!("{outside} mod(s) of the snapshot lie outside {chosen}"));
            }
        }
        Scope {
            partial: (!reasons.is_empty()).then(|| reasons.join("; ")),
            recorded_roots: !stored.roots.is_empty(),
            profiles: stored_profiles,
        }
    }

    /// The command that checks everything the snapshot covers.
    fn whole_command(&self, snapshot: &str, accept: bool) -> String {
        // Recorded roots are the default; older snapshots need them named.
        let roots = if self.recorded_roots { "" } else { " MOD-OR-DIR..." };
        let profiles: String = self.profiles.iter().map(|profile| format!(" --profile {profile}")).collect();
        let accept = if accept { " --accept" } else { "" };
        format!("`modlearn check{roots} --snapshot {snapshot}{profiles}{accept}`")
    }
}

fn join(items: &[&String]) -> String {
    items.iter().map(|item| format!("`{item}`")).collect::<Vec<_>>().join(", ")
}

/// What `check --json` prints: the scope and every drift, change by change.
fn json_report(snapshot: &str, mods: usize, profiles: &[String], drifts: &[ModDrift], accepted: bool) -> String {
    let changes = |profiles: &std::collections::BTreeMap<String, Vec<modlearn_check::Change>>| -> Value {
        profiles
            .iter()
            .map(|(profile, changes)| {
                let list: Vec<Value> = changes
                    .iter()
                    .map(|change| {
                        let kind = match change.kind {
                            ChangeKind::Added => "added",
                            ChangeKind::Removed => "removed",
                            ChangeKind::Changed => "changed",
                        };
                        json!({ "kind": kind, "what": change.what })
                    })
                    .collect();
                (profile.clone(), Value::Array(list))
            })
            .collect::<serde_json::Map<String, Value>>()
            .into()
    };
    let drift: Vec<Value> = drifts
        .iter()
        .map(|drift| match drift {
            ModDrift::New { key, profiles } => json!({ "mod": key, "status": "new", "profiles": changes(profiles) }),
            ModDrift::Vanished { key } => json!({ "mod": key, "status": "vanished" }),
            ModDrift::Changed { key, profiles } => json!({ "mod": key, "status": "changed", "profiles": changes(profiles) }),
        })
        .collect();
    let report = json!({ "snapshot": snapshot, "mods": mods, "profiles": profiles, "accepted": accepted, "drift": drift });
    serde_json::to_string_pretty(&report).expect("the check report serializes")
}

/// `N mod(s) (a changed, b new, c vanished)`, or `no mod`.
fn drift_summary(drifts: &[ModDrift]) -> String {
    if drifts.is_empty() {
        return "no mod".to_owned();
    }
    let count = |pick: fn(&ModDrift) -> bool| drifts.iter().filter(|d| pick(d)).count();
    let changed = count(|d| matches!(d, ModDrift::Changed { .. }));
    let new = count(|d| matches!(d, ModDrift::New { .. }));
    let vanished = count(|d| matches!(d, ModDrift::Vanished { .. }));
    format!("{} mod(s): {changed} changed, {new} new, {vanished} vanished", drifts.len())
}

impl From<CheckError> for CliError {
    fn from(error: CheckError) -> CliError {
        let hint = match &error {
            CheckError::UnknownProfile { .. } => format!("profiles: {}", modlearn_check::PROFILES.join(", ")),
            CheckError::InvalidSnapshot { .. } => "fix the file, or delete it and run with --accept to write a new one".to_owned(),
            CheckError::Input { .. } | CheckError::NotAMod { .. } | CheckError::NoMods { .. } => {
                "pass mod files (.js, .mjs, .ts, .tsx) or directories that contain them".to_owned()
            }
        };
        CliError::usage(error.to_string()).hint(hint)
    }
}
