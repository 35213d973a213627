//! `runs_under_profile`: the candidate loads and behaves under a capability
//! profile: no diagnostics, and everything it registers under the full
//! profile that this profile allows is still registered.

use modlearn_spec::RunsUnderProfile;
use modlearn_types::{Observation, Probe, ProfileReport, Registrations};
use serde_json::{Value, json};

use crate::check::{Judged, unexpected};
use crate::checks::disposes_cleanly::describe_registrations;
use crate::checks::lifecycle_steps::{Conversation, count, describe_diagnostic, step_probes};

pub(crate) fn probe(assertion: &RunsUnderProfile) -> Probe {
    Probe::UnderProfile { profile: assertion.profile.as_str().to_owned(), steps: step_probes(&assertion.steps, Conversation::Default) }
}

pub(crate) fn judge(assertion: &RunsUnderProfile, observation: &Observation) -> Judged {
    let Observation::ProfileRan { report } = observation else {
        return unexpected(observation);
    };
    let profile = assertion.profile.as_str();
    let allowed = allowed(report);
    let missing = missing(&allowed, &report.registrations);
    let details = json!({ "report": report, "allowed": allowed, "missing": missing });
    if !report.loaded {
        let why = report.diagnostics.first().map(describe_diagnostic).unwrap_or_default();
        return (false, format!("the candidate did not load under `{profile}`: {why}"), details);
    }
    if let Some(first) = report.diagnostics.first() {
        let more = if report.diagnostics.len() > 1 { format!(" (and {} more)", report.diagnostics.len() - 1) } else { String::new() };
        return (false, format!("under `{profile}` it recorded {}{more}", describe_diagnostic(first)), details);
    }
    if !missing.is_empty() {
        return (
            false,
            format!(
                "under `{profile}` it does not register {}, which it registers under the full profile and `{profile}` allows",
                describe_registrations(&missing)
            ),
            details,
        );
    }
    let mut expected_missing = Vec::new();
    for tool in assertion.expect_tools.iter().flatten().filter(|t| !report.registrations.tools.contains(t)) {
        expected_missing.push(format!("tool `{tool}`"));
    }
    for command in assertion.expect_commands.iter().flatten().filter(|c| !report.registrations.commands.contains(c)) {
        expected_missing.push(format!("command `/{command}`"));
    }
    for event in assertion.expect_events.iter().flatten().filter(|e| !report.registrations.events.contains_key(*e)) {
        expected_missing.push(format!("handler for {event}"));
    }
    if !expected_missing.is_empty() {
        return (false, format!("under `{profile}` it does not register the expected {}", expected_missing.join(", ")), details);
    }
    let offered = describe_registrations(&report.registrations);
    let dropped = dropped(&allowed, &report.full);
    let dropped = if dropped == 0 { String::new() } else { format!("; {} the profile does not offer", count(dropped, "registration")) };
    let offered = if offered.is_empty() { "nothing".to_owned() } else { offered };
    (true, format!("loads under `{profile}` without diagnostics and registers {offered}{dropped}"), details)
}

/// What the full-profile registrations are, restricted to what the profile offers.
fn allowed(report: &ProfileReport) -> Registrations {
    let flag = |path: &[&str]| {
        path.iter().try_fold(&report.capabilities.capabilities, |value, key| value.get(key)).and_then(Value::as_bool) == Some(true)
    };
    let keep = |on: bool, names: &Vec<String>| if on { names.clone() } else { Vec::new() };
    let full = &report.full;
    Registrations {
        events: full
            .events
            .iter()
            .filter(|(event, _)| report.capabilities.events.contains(event))
            .map(|(event, n)| (event.clone(), *n))
            .collect(),
        tools: keep(flag(&["tools"]), &full.tools),
        commands: keep(flag(&["commands"]), &full.commands),
        permissions: keep(flag(&["permissions"]), &full.permissions),
        providers: keep(flag(&["providers"]), &full.providers),
        panels: keep(flag(&["ui", "panels"]), &full.panels),
    }
}

/// What `allowed` has that `actual` lacks (fewer handlers count as missing).
fn missing(allowed: &Registrations, actual: &Registrations) -> Registrations {
    let absent = |want: &Vec<String>, have: &Vec<String>| want.iter().filter(|n| !have.contains(n)).cloned().collect();
    Registrations {
        events: allowed
            .events
            .iter()
            .filter_map(|(event, n)| {
                let have = actual.events.get(event).copied().unwrap_or(0);
                (have < *n).then(|| (event.clone(), n - have))
            })
            .collect(),
        tools: absent(&allowed.tools, &actual.tools),
        commands: absent(&allowed.commands, &actual.commands),
        permissions: absent(&allowed.permissions, &actual.permissions),
        providers: absent(&allowed.providers, &actual.providers),
        panels: absent(&allowed.panels, &actual.panels),
    }
}

fn dropped(allowed: &Registrations, full: &Registrations) -> usize {
    let total = |r: &Registrations| {
        r.events.values().sum::<usize>() + r.tools.len() + r.commands.len() + r.permissions.len() + r.providers.len() + r.panels.len()
    };
    total(full) - total(allowed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::diagnostic;
    use modlearn_spec::CapabilityProfile;
    use modlearn_types::ProfileCapabilities;

    fn full() -> Registrations {
        let mut registrations = Registrations::default();
        registrations.events.insert("turn_start".to_owned(), 1);
        registrations.tools = vec!["notes".to_owned()];
        registrations.commands = vec!["notes".to_owned()];
        registrations
    }

    fn headless(registrations: Registrations) -> ProfileReport {
        ProfileReport {
            capabilities: ProfileCapabilities {
                profile: "headless".to_owned(),
                capabilities: json!({ "tools": true, "commands": false, "permissions": true, "providers": true, "ui": { "panels": false } }),
                events: vec!["turn_start".to_owned(), "tool_start".to_owned()],
            },
            loaded: true,
            registrations,
            full: full(),
            full_loaded: true,
            diagnostics: Vec::new(),
            steps: Vec::new(),
        }
    }

    fn assertion() -> RunsUnderProfile {
        RunsUnderProfile {
            profile: CapabilityProfile::Headless,
            steps: Vec::new(),
            expect_tools: None,
            expect_commands: None,
            expect_events: None,
        }
    }

    fn judged(assertion: &RunsUnderProfile, report: ProfileReport) -> Judged {
        judge(assertion, &Observation::ProfileRan { report: Box::new(report) })
    }

    #[test]
    fn passes_when_it_keeps_what_the_profile_allows() {
        let mut kept = full();
        kept.commands.clear();
        let mut expecting = assertion();
        expecting.expect_tools = Some(vec!["notes".to_owned()]);
        expecting.expect_events = Some(vec!["turn_start".to_owned()]);
        let (passed, message, _) = judged(&expecting, headless(kept));
        assert!(passed, "{message}");
        assert_eq!(
            message,
            "loads under `headless` without diagnostics and registers 1 turn_start handler, tool `notes`; \
             1 registration the profile does not offer"
        );
    }

    #[test]
    fn fails_when_it_gives_up_more_than_the_profile_takes() {
        let (passed, message, _) = judged(&assertion(), headless(Registrations::default()));
        assert!(!passed);
        assert_eq!(
            message,
            "under `headless` it does not register 1 turn_start handler, tool `notes`, which it registers under \
             the full profile and `headless` allows"
        );
    }

    #[test]
    fn fails_on_diagnostics_and_missing_expectations() {
        let mut report = headless(full());
        report.diagnostics = vec![diagnostic("activate", "letta.commands is undefined")];
        let (passed, message, _) = judged(&assertion(), report);
        assert!(!passed);
        assert_eq!(message, "under `headless` it recorded [activate] letta.commands is undefined");
        let mut expecting = assertion();
        expecting.expect_commands = Some(vec!["notes".to_owned()]);
        expecting.expect_events = Some(vec!["tool_start".to_owned()]);
        let mut kept = full();
        kept.commands.clear();
        let (passed, message, _) = judged(&expecting, headless(kept));
        assert!(!passed);
        assert_eq!(message, "under `headless` it does not register the expected command `/notes`, handler for tool_start");
    }
}
