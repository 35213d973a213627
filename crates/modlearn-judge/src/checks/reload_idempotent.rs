//! `reload_idempotent`: K load/dispose cycles in one engine give the same
//! registry, the same behaviour and no state that grows.

use modlearn_spec::{DEFAULT_CYCLES, ReloadIdempotent};
use modlearn_types::{Dialect, GlobalState, Observation, Probe, ReloadCycle};
use serde_json::json;

use crate::check::{Judged, unexpected};
use crate::checks::disposes_cleanly::subscription_words;
use crate::checks::lifecycle_steps::{Conversation, count, describe_diagnostic, first_difference, normalized, probe_name, step_probes};

pub(crate) fn probe(assertion: &ReloadIdempotent) -> Probe {
    Probe::Reload { cycles: assertion.cycles.unwrap_or(DEFAULT_CYCLES), steps: step_probes(&assertion.steps, Conversation::Default) }
}

pub(crate) fn judge(_assertion: &ReloadIdempotent, observation: &Observation, dialect: Dialect) -> Judged {
    let Observation::Reloaded { cycles } = observation else {
        return unexpected(observation);
    };
    let details = json!({ "cycles": cycles });
    let Some(first) = cycles.first() else {
        return (false, "no cycle ran".to_owned(), details);
    };
    if !first.loaded {
        let why = first.diagnostics.first().map(describe_diagnostic).unwrap_or_default();
        return (false, format!("the candidate did not load: {why}"), details);
    }
    for (index, cycle) in cycles.iter().enumerate().skip(1) {
        let differences = differences(first, cycle, index + 1, dialect);
        if !differences.is_empty() {
            return (false, format!("cycle {} differs from cycle 1: {}", index + 1, differences.join("; ")), details);
        }
    }
    let registered = first.registrations.events.values().sum::<usize>()
        + first.registrations.tools.len()
        + first.registrations.commands.len()
        + first.registrations.permissions.len();
    (
        true,
        format!("{} gave the same registry ({}) and the same behaviour", count(cycles.len(), "cycle"), count(registered, "registration")),
        details,
    )
}

/// What cycle `k` does differently from cycle 1, one phrase each.
fn differences(first: &ReloadCycle, cycle: &ReloadCycle, k: usize, dialect: Dialect) -> Vec<String> {
    let mut found = Vec::new();
    if !cycle.loaded {
        let why = cycle.diagnostics.first().map(describe_diagnostic).unwrap_or_default();
        found.push(format!("it did not load: {why}"));
    }
    let (a, b) = (json!(first.registrations), json!(cycle.registrations));
    if let Some(difference) = first_difference(&a, &b) {
        found.push(format!("registrations {difference}"));
    }
    if cycle.diagnostics.len() > first.diagnostics.len() {
        let new = &cycle.diagnostics[first.diagnostics.len()..];
        found.push(format!("it recorded {}", describe_diagnostic(&new[0])));
    }
    for (step, (x, y)) in first.steps.iter().zip(&cycle.steps).enumerate() {
        if let Some(difference) = first_difference(&normalized(x), &normalized(y)) {
            found.push(format!("step {} ({}) observed {difference}", step + 1, step_name(first, step)));
            break;
        }
    }
    for (what, a, b) in [
        ("timer", first.leftovers.timers.len(), cycle.leftovers.timers.len()),
        ("pending promise", first.leftovers.promises.len(), cycle.leftovers.promises.len()),
        (subscription_words(dialect).0, first.leftovers.subscriptions.len(), cycle.leftovers.subscriptions.len()),
    ] {
        if b > a {
            found.push(format!("{} left after dispose, cycle 1 left {a}", count(b, what)));
        }
    }
    found.extend(global_growth(&first.leftovers.globals, &cycle.leftovers.globals, k));
    found
}

fn step_name(cycle: &ReloadCycle, step: usize) -> String {
    // Step observations carry no probe; name them by what they observed.
    cycle.steps.get(step).map(observation_name).unwrap_or_default()
}

fn observation_name(observation: &Observation) -> String {
    match observation {
        Observation::Emitted { emission, .. } => format!("emit {}", emission.name),
        Observation::ToolRan { .. } => "runTool".to_owned(),
        Observation::CommandRan { .. } => "runCommand".to_owned(),
        Observation::PermissionChecked { .. } => "checkPermissions".to_owned(),
        _ => probe_name(&Probe::Snapshot),
    }
}

/// Globals that appeared, disappeared or changed size since cycle 1.
fn global_growth(first: &[GlobalState], later: &[GlobalState], k: usize) -> Vec<String> {
    let mut found = Vec::new();
    for global in later {
        let subject = subject(&global.name);
        match first.iter().find(|g| g.name == global.name) {
            None => found.push(format!("{subject} appeared ({})", global.kind)),
            Some(before) if before.kind != global.kind || before.size != global.size => found.push(format!(
                "{subject} is {} {} in cycle 1, {} {} in cycle {k}",
                before.kind,
                size(before.size),
                global.kind,
                size(global.size)
            )),
            Some(_) => {}
        }
    }
    for global in first {
        if !later.iter().any(|g| g.name == global.name) {
            found.push(format!("{} disappeared", subject(&global.name)));
        }
    }
    found
}

/// A global as the sentence names it; what the engine reports of the virtual machine
/// (`process listeners`, `console.time and console.count labels`) has a space in its name and
/// reads as it is.
fn subject(name: &str) -> String {
    if name.contains(' ') { name.to_owned() } else { format!("globalThis.{name}") }
}

fn size(size: f64) -> String {
    if size.fract() == 0.0 && size.abs() < 1e15 { format!("{}", size as i64) } else { size.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::diagnostic;
    use modlearn_types::{Leftovers, PendingTimer, Registrations, ToolRun};

    fn cycle() -> ReloadCycle {
        let mut registrations = Registrations::default();
        registrations.events.insert("turn_start".to_owned(), 1);
        registrations.tools = vec!["notes".to_owned()];
        ReloadCycle {
            loaded: true,
            registrations,
            diagnostics: Vec::new(),
            leftovers: Leftovers {
                globals: vec![GlobalState { name: "__notesLoaded".to_owned(), kind: "boolean".to_owned(), size: 0.0 }],
                ..Leftovers::default()
            },
            steps: vec![tool_ran("1 note")],
        }
    }

    fn tool_ran(output: &str) -> Observation {
        let run: ToolRun = serde_json::from_value(json!({
            "outcome": "ran", "status": "success", "output": output, "diagnostics": []
        }))
        .unwrap_or_else(|error| panic!("{error}"));
        Observation::ToolRan { run }
    }

    fn judged(cycles: Vec<ReloadCycle>) -> Judged {
        judge(&ReloadIdempotent::default(), &Observation::Reloaded { cycles }, Dialect::Letta)
    }

    #[test]
    fn passes_when_every_cycle_is_the_same() {
        let (passed, message, _) = judged(vec![cycle(), cycle(), cycle()]);
        assert!(passed, "{message}");
        assert_eq!(message, "3 cycles gave the same registry (2 registrations) and the same behaviour");
    }

    #[test]
    fn names_handlers_registered_twice_and_growing_globals() {
        let mut third = cycle();
        third.registrations.events.insert("turn_start".to_owned(), 3);
        third.leftovers.globals.push(GlobalState { name: "__handlers".to_owned(), kind: "array".to_owned(), size: 3.0 });
        third.leftovers.globals[0].size = 0.0;
        let mut first = cycle();
        first.leftovers.globals.push(GlobalState { name: "__handlers".to_owned(), kind: "array".to_owned(), size: 1.0 });
        let (passed, message, _) = judged(vec![first.clone(), first, third]);
        assert!(!passed);
        assert_eq!(
            message,
            "cycle 3 differs from cycle 1: registrations events.turn_start: 1 vs 3; \
             globalThis.__handlers is array 1 in cycle 1, array 3 in cycle 3"
        );
    }

    #[test]
    fn names_changed_behaviour_new_diagnostics_and_growing_timers() {
        let mut second = cycle();
        second.steps = vec![tool_ran("2 notes")];
        second.diagnostics = vec![diagnostic("activate", "Mod tool 'notes' is already registered")];
        second.leftovers.timers =
            vec![PendingTimer { kind: "interval".to_owned(), every_ms: Some(10), due_in_ms: 1, owner: "m".to_owned(), generation: 1 }];
        let (passed, message, _) = judged(vec![cycle(), second]);
        assert!(!passed);
        assert_eq!(
            message,
            "cycle 2 differs from cycle 1: it recorded [activate] Mod tool 'notes' is already registered; \
             step 1 (runTool) observed run.output: \"1 note\" vs \"2 notes\"; 1 timer left after dispose, cycle 1 left 0"
        );
    }

    #[test]
    fn fails_when_the_candidate_does_not_load() {
        let mut first = cycle();
        first.loaded = false;
        first.diagnostics = vec![diagnostic("import", "bad")];
        let (passed, message, _) = judged(vec![first]);
        assert!(!passed);
        assert_eq!(message, "the candidate did not load: [import] bad");
    }
}
