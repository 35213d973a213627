//! `disposes_cleanly`: after dispose nothing the candidate started remains:
//! no timers, no pending promises it constructed, no callbacks that still
//! run, the disposer did not throw and the signal it was handed is aborted.

use modlearn_spec::{DEFAULT_SETTLE_MS, DisposesCleanly};
use modlearn_types::{Dialect, DisposeReport, Observation, PendingTimer, Probe, ProcessListener, Registrations, Subscription};
use serde_json::json;

use crate::check::{Judged, unexpected};
use crate::checks::lifecycle_steps::{Conversation, count, describe_diagnostic, step_probes};

pub(crate) fn probe(assertion: &DisposesCleanly) -> Probe {
    Probe::Dispose {
        steps: step_probes(&assertion.steps, Conversation::Default),
        settle_ms: assertion.settle_ms.unwrap_or(DEFAULT_SETTLE_MS),
    }
}

pub(crate) fn judge(assertion: &DisposesCleanly, observation: &Observation, dialect: Dialect) -> Judged {
    let Observation::Disposed { report } = observation else {
        return unexpected(observation);
    };
    let details = json!({ "report": report });
    if !report.loaded {
        let why = report.load_diagnostics.first().map(describe_diagnostic).unwrap_or_default();
        return (false, format!("the candidate did not load: {why}"), details);
    }
    let leaks = leaks(assertion, report, dialect);
    if leaks.is_empty() {
        let ran = if report.settle.firings == 0 {
            String::new()
        } else {
            format!(", {} after it", count(report.settle.firings, "timer callback"))
        };
        (true, format!("nothing remained after dispose; the signal is aborted{ran}"), details)
    } else {
        (false, format!("leaked: {}", leaks.join("; ")), details)
    }
}

/// Everything that outlived the dispose, one phrase each.
fn leaks(assertion: &DisposesCleanly, report: &DisposeReport, dialect: Dialect) -> Vec<String> {
    let mut leaks = Vec::new();
    let first = report.dispose.diagnostics.first().map(describe_diagnostic);
    match (report.dispose.threw.is_empty(), first) {
        (false, Some(first)) => leaks.push(format!("the disposer threw: {first}")),
        (false, None) => leaks.push("the disposer threw".to_owned()),
        // A throwing abort listener, or a disposer's promise that rejected.
        (true, Some(first)) => leaks.push(format!("disposing failed: {first}")),
        (true, None) => {}
    }
    if report.dispose.signals.iter().any(|signal| !signal.aborted) {
        leaks.push("letta.signal was not aborted".to_owned());
    }
    leaks.extend(timer_leaks(&report.leftovers.timers));
    if !report.leftovers.promises.is_empty() {
        leaks.push(format!("{} it constructed still pending", count(report.leftovers.promises.len(), "promise")));
    }
    leaks.extend(subscription_leaks(&report.leftovers.subscriptions, dialect));
    leaks.extend(listener_leaks(&report.leftovers.listeners));
    // What only the read after the clock ran shows was made after the dispose (by a callback
    // that still ran, or by mod code reached while the leftovers were read): a leak as much.
    if report.leftovers.timers.is_empty() {
        leaks.extend(timer_leaks(&report.after_settle.timers).into_iter().map(|leak| format!("{leak} (made after the dispose)")));
    }
    if report.leftovers.promises.is_empty() && !report.after_settle.promises.is_empty() {
        let pending = count(report.after_settle.promises.len(), "promise");
        leaks.push(format!("{pending} it constructed after the dispose still pending"));
    }
    let mut after: Vec<String> = Vec::new();
    for diagnostic in &report.settle.diagnostics {
        let text = describe_diagnostic(diagnostic);
        if !after.contains(&text) {
            after.push(text);
        }
    }
    if let Some(first) = after.first() {
        let more = if after.len() > 1 { format!(" (and {} more)", after.len() - 1) } else { String::new() };
        leaks.push(format!("code still ran after dispose: {first}{more}"));
    }
    if assertion.require_own_cleanup == Some(true) && !report.dispose.left.is_empty() {
        leaks.push(format!("its disposer left registered {}", describe_registrations(&report.dispose.left)));
    }
    leaks
}

/// What a dialect calls a subscription its host keeps calling after the candidate is gone, and
/// how the candidate avoids leaving one.
pub(crate) fn subscription_words(dialect: Dialect) -> (&'static str, &'static str) {
    match dialect {
        Dialect::Dsh => (
            "root listener",
            "register through the plugin's own ctx, not ctx.root, and undo any patch of a host object, so nothing outlives unload",
        ),
        // Pi removes an extension's own subscriptions when it shuts it down; one that outlives
        // it was made on a bus the extension reached some other way.
        Dialect::Pi => {
            ("pi.events subscription", "subscribe through the `pi.events` the extension was given, which Pi cleans up at shutdown")
        }
        Dialect::Letta => ("pi.events subscription", "session_shutdown must call the unsubscribe pi.events.on returned"),
    }
}

/// `2 pi.events subscriptions still listening (on `todo:changed`)`: the host keeps calling them.
fn subscription_leaks(subscriptions: &[Subscription], dialect: Dialect) -> Option<String> {
    if subscriptions.is_empty() {
        return None;
    }
    let mut channels: Vec<&str> = subscriptions.iter().map(|subscription| subscription.channel.as_str()).collect();
    channels.dedup();
    let on = channels.iter().map(|channel| format!("`{channel}`")).collect::<Vec<_>>().join(", ");
    let (noun, fix) = subscription_words(dialect);
    Some(format!("{} still listening (on {on}): {fix}", count(subscriptions.len(), noun)))
}

/// `2 listeners on process still attached (`SIGINT`, `process.stdin` `data`)`: the host process
/// calls them when the event comes, long after the mod is gone. Handles the mod holds open on
/// the platform (a file watcher, a channel subscriber, a readline on stdin) are told apart.
fn listener_leaks(listeners: &[ProcessListener]) -> Vec<String> {
    let (on_process, handles): (Vec<&ProcessListener>, Vec<&ProcessListener>) =
        listeners.iter().partition(|listener| listener.target == "process" || listener.target.starts_with("process."));
    let named = |listeners: &[&ProcessListener], name: fn(&ProcessListener) -> String| {
        let mut names: Vec<String> = Vec::new();
        for listener in listeners {
            let event = name(listener);
            if !names.contains(&event) {
                names.push(event);
            }
        }
        names.join(", ")
    };
    let mut leaks = Vec::new();
    if !on_process.is_empty() {
        let events = named(&on_process, |listener| {
            if listener.target == "process" {
                format!("`{}`", listener.event)
            } else {
                format!("`{}` `{}`", listener.target, listener.event)
            }
        });
        leaks.push(format!(
            "{} on process or its streams still attached ({events}): remove each in the disposer (`process.off(event, listener)`)",
            count(on_process.len(), "listener"),
        ));
    }
    if !handles.is_empty() {
        let held = named(&handles, |handle| format!("`{}` on `{}`", handle.target, handle.event));
        leaks.push(format!(
            "{} still open ({held}): close each in the disposer (`watcher.close()`, `fs.unwatchFile`, `channel.unsubscribe`, `rl.close()`)",
            count(handles.len(), "handle"),
        ));
    }
    leaks
}

/// `1 interval (every 1000 ms) still scheduled`, grouped by kind and period.
fn timer_leaks(timers: &[PendingTimer]) -> Vec<String> {
    let mut groups: Vec<(String, usize)> = Vec::new();
    for timer in timers {
        let what = match timer.every_ms {
            Some(every) => format!("(every {every} ms)"),
            None => format!("(due in {} ms)", timer.due_in_ms),
        };
        let key = format!("{}\u{0}{what}", timer.kind);
        match groups.iter_mut().find(|(existing, _)| *existing == key) {
            Some((_, n)) => *n += 1,
            None => groups.push((key, 1)),
        }
    }
    groups
        .into_iter()
        .map(|(key, n)| {
            let (kind, what) = key.split_once('\u{0}').unwrap_or((&key, ""));
            format!("{} {what} still scheduled", count(n, kind))
        })
        .collect()
}

/// `2 turn_start handlers, tool `notes`, command `/notes``.
pub(crate) fn describe_registrations(registrations: &Registrations) -> String {
    let mut parts: Vec<String> = registrations.events.iter().map(|(event, n)| count(*n, &format!("{event} handler"))).collect();
    let named = [
        ("tool", &registrations.tools, ""),
        ("command", &registrations.commands, "/"),
        ("permission check", &registrations.permissions, ""),
        ("provider", &registrations.providers, ""),
        ("panel", &registrations.panels, ""),
    ];
    for (kind, names, prefix) in named {
        parts.extend(names.iter().map(|name| format!("{kind} `{prefix}{name}`")));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::diagnostic;
    use modlearn_types::{CheckedDispose, Leftovers, PendingPromise, Settled, SignalState};

    fn clean() -> DisposeReport {
        DisposeReport {
            loaded: true,
            load_diagnostics: Vec::new(),
            steps: Vec::new(),
            dispose: CheckedDispose {
                disposed: 1,
                threw: Vec::new(),
                left: Registrations::default(),
                signals: vec![SignalState { owner: "global:/c/m.js".to_owned(), aborted: true }],
                diagnostics: Vec::new(),
            },
            settle: Settled { firings: 0, diagnostics: Vec::new() },
            settle_ms: 60_000,
            leftovers: Leftovers::default(),
            after_settle: Leftovers::default(),
        }
    }

    fn judged(assertion: &DisposesCleanly, report: DisposeReport) -> Judged {
        judge(assertion, &Observation::Disposed { report: Box::new(report) }, Dialect::Pi)
    }

    fn timer(kind: &str, every: Option<u64>, due: u64) -> PendingTimer {
        PendingTimer { kind: kind.to_owned(), every_ms: every, due_in_ms: due, owner: "global:/c/m.js".to_owned(), generation: 1 }
    }

    #[test]
    fn passes_when_nothing_remains() {
        let (passed, message, _) = judged(&DisposesCleanly::default(), clean());
        assert!(passed, "{message}");
        assert_eq!(message, "nothing remained after dispose; the signal is aborted");
    }

    #[test]
    fn lists_exactly_what_leaked() {
        let mut report = clean();
        report.leftovers.timers =
            vec![timer("interval", Some(1000), 1000), timer("timeout", None, 500), timer("interval", Some(1000), 200)];
        report.leftovers.promises = vec![PendingPromise { owner: "m".to_owned(), generation: 1, age_ms: 0 }];
        report.settle.diagnostics = vec![diagnostic("stale_handle", "Ignored stale mod handle for tool 'x'")];
        let (passed, message, _) = judged(&DisposesCleanly::default(), report);
        assert!(!passed);
        assert_eq!(
            message,
            "leaked: 2 intervals (every 1000 ms) still scheduled; 1 timeout (due in 500 ms) still scheduled; \
             1 promise it constructed still pending; code still ran after dispose: [stale_handle] Ignored stale mod handle for tool 'x'"
        );
    }

    #[test]
    fn what_appears_only_after_the_clock_ran_still_leaked() {
        let mut report = clean();
        report.after_settle.timers = vec![timer("interval", Some(1000), 1000)];
        report.after_settle.promises = vec![PendingPromise { owner: "m".to_owned(), generation: 1, age_ms: 0 }];
        let (passed, message, _) = judged(&DisposesCleanly::default(), report.clone());
        assert!(!passed);
        assert_eq!(
            message,
            "leaked: 1 interval (every 1000 ms) still scheduled (made after the dispose); \
             1 promise it constructed after the dispose still pending"
        );
        // Whatever the first read saw is reported once, as it was.
        report.leftovers.timers = report.after_settle.timers.clone();
        let (_, message, _) = judged(&DisposesCleanly::default(), report);
        assert!(message.starts_with("leaked: 1 interval (every 1000 ms) still scheduled; 1 promise"), "{message}");
    }

    #[test]
    fn fails_on_a_throwing_disposer_an_unaborted_signal_and_own_cleanup() {
        let mut report = clean();
        report.dispose.threw = vec!["global:/c/m.js".to_owned()];
        report.dispose.diagnostics = vec![diagnostic("dispose", "boom")];
        report.dispose.signals[0].aborted = false;
        report.dispose.left.events.insert("turn_start".to_owned(), 2);
        report.dispose.left.tools = vec!["notes".to_owned()];
        let (passed, message, _) = judged(&DisposesCleanly::default(), report.clone());
        assert!(!passed);
        assert_eq!(message, "leaked: the disposer threw: [dispose] boom; letta.signal was not aborted");
        let strict = DisposesCleanly { require_own_cleanup: Some(true), ..DisposesCleanly::default() };
        let (_, message, _) = judged(&strict, report);
        assert!(message.ends_with("its disposer left registered 2 turn_start handlers, tool `notes`"), "{message}");
    }

    #[test]
    fn fails_when_the_candidate_does_not_load() {
        let mut report = clean();
        report.loaded = false;
        report.load_diagnostics = vec![diagnostic("activate", "nope")];
        let (passed, message, _) = judged(&DisposesCleanly::default(), report);
        assert!(!passed);
        assert_eq!(message, "the candidate did not load: [activate] nope");
    }
}
