//! `modlearn check`: compare what mods show their authors with a committed
//! snapshot. The logic is in `modlearn-check`; this prints and picks the
//! exit code.

use modlearn_check::{ChangeKind, CheckError, CheckSettings, DEFAULT_PROFILE, ModDrift, Snapshot};
use serde_json::{Value, json};

use crate::cli::CheckArgs;
use crate::exit::{CliError, FAILURE, SUCCESS};

pub fn run(args: CheckArgs) -> Result<u8, CliError> {
    let base = args.snapshot.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let mods = modlearn_check::find_mods(&args.mods, base)?;
    let stored = Snapshot::read(&args.snapshot)?;
    if stored.is_none() && !args.accept {
        return Err(CliError::usage(format!("snapshot file `{}` does not exist (--snapshot)", args.snapshot.display()))
            .hint("run once with --accept to create it from what the mods show now, then commit it"));
    }
    let eval = super::engine_options(&args.engine);
    let mut profiles = args.profiles.clone();
    if profiles.is_empty() {
        profiles.push(DEFAULT_PROFILE.to_owned());
    }
    profiles.sort();
    profiles.dedup();
    let settings = CheckSettings { profiles: profiles.clone(), engine: eval.engine, jobs: eval.jobs };
    let observation = modlearn_check::observe(&mods, &settings)?;
    let existed = stored.is_some();
    let stored = stored.unwrap_or_default();
    let drifts = modlearn_check::compare(&stored, &observation.snapshot);

    let snapshot_name = args.snapshot.display().to_string();
    if let Some(junit) = &args.junit {
        let report = modlearn_check::junit_report(&snapshot_name, &observation, &stored, &drifts, args.accept);
        modlearn_record::write_atomic(junit, report.to_xml())?;
    }
    let scope = format!("{} mod(s) under profile(s) {}", mods.len(), profiles.join(", "));
    if args.accept {
        observation.snapshot.write(&args.snapshot)?;
        let before = if existed {
            format!("accepted drift in {}", drift_summary(&drifts))
        } else {
            "a new snapshot".to_owned()
        };
        if args.json {
            println!("{}", json_report(&snapshot_name, mods.len(), &profiles, &drifts, true));
        } else {
            println!("wrote `{snapshot_name}`: {scope}; {before}");
        }
        return Ok(SUCCESS);
    }
    if args.json {
        println!("{}", json_report(&snapshot_name, mods.len(), &profiles, &drifts, false));
        return Ok(if drifts.is_empty() { SUCCESS } else { FAILURE });
    }
    if drifts.is_empty() {
        println!("checked {scope}: no drift from `{snapshot_name}`");
        return Ok(SUCCESS);
    }
    let color = crate::printer::color_on(crate::printer::Stream::Stdout);
    print!("{}", crate::printer::color_diff(&modlearn_check::render_drift(&drifts), color));
    println!("\ndrift from `{snapshot_name}` in {} (checked {scope})", drift_summary(&drifts));
    eprintln!("hint: if the change is intended, run again with --accept and commit `{snapshot_name}`");
    Ok(FAILURE)
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
            CheckError::InvalidSnapshot { .. } => {
                "fix the file, or delete it and run with --accept to write a new one".to_owned()
            }
            CheckError::Input { .. } | CheckError::NotAMod { .. } | CheckError::NoMods { .. } => {
                "pass mod files (.js, .mjs, .ts, .tsx) or directories that contain them".to_owned()
            }
        };
        CliError::usage(error.to_string()).hint(hint)
    }
}
