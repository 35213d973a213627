//! `deterministic`: two evaluations observe the same, even with another
//! `Math.random` seed, the clock moved on and a reused engine.

use modlearn_spec::{Deterministic, Variation};
use modlearn_types::{Observation, Probe};
use serde_json::json;

use crate::check::{Judged, unexpected};
use crate::checks::lifecycle_steps::{Conversation, first_difference, normalized, probe_name, step_probes};

pub(crate) fn probe(assertion: &Deterministic) -> Probe {
    let vary = assertion.vary.clone().unwrap_or_else(|| vec![Variation::Seed, Variation::Clock, Variation::Reuse]);
    Probe::Repeat {
        // No steps: the exercise stage repeats the scenario's other probes.
        probes: assertion.steps.as_deref().map(|steps| step_probes(steps, Conversation::Default)).unwrap_or_default(),
        vary: vary.iter().map(|v| v.as_str().to_owned()).collect(),
    }
}

pub(crate) fn judge(_assertion: &Deterministic, observation: &Observation) -> Judged {
    let Observation::Repeated { report } = observation else {
        return unexpected(observation);
    };
    let details = json!({ "report": report });
    if report.probes.is_empty() {
        return (false, "nothing to repeat: set `steps` or add other assertions to the scenario".to_owned(), details);
    }
    let varied = report.varied.join(", ");
    for (index, (first, second)) in report.first.iter().zip(&report.second).enumerate() {
        if let Some(difference) = first_difference(&normalized(first), &normalized(second)) {
            let step = report.probes.get(index).map(probe_name).unwrap_or_default();
            return (false, format!("the second run (varied: {varied}) differs at step {} ({step}): {difference}", index + 1), details);
        }
    }
    let n = report.probes.len();
    (true, format!("both runs observed the same in {n} step(s) (varied: {varied})"), details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::fixtures::emitted;
    use modlearn_types::RepeatReport;
    use serde_json::Value;

    fn turn(text: &str, stamp: &str) -> Observation {
        let mut diagnostic = serde_json::to_value(crate::checks::fixtures::diagnostic("event", "x")).unwrap();
        diagnostic["timestamp"] = Value::from(stamp);
        emitted(
            "turn_start",
            1,
            json!({ "input": [] }),
            json!({ "input": [{ "role": "system", "content": text }] }),
            vec![serde_json::from_value(diagnostic).unwrap()],
        )
    }

    fn report(first: Observation, second: Observation) -> Observation {
        Observation::Repeated {
            report: Box::new(RepeatReport {
                probes: vec![Probe::Emit { event: "turn_start".to_owned(), payload: json!({}), compare: None }],
                varied: vec!["seed".to_owned(), "clock".to_owned()],
                first: vec![first],
                second: vec![second],
            }),
        }
    }

    #[test]
    fn passes_when_only_timestamps_differ() {
        let (passed, message, _) = judge(&Deterministic::default(), &report(turn("tip 1", "2026-01-01"), turn("tip 1", "2026-01-02")));
        assert!(passed, "{message}");
        assert_eq!(message, "both runs observed the same in 1 step(s) (varied: seed, clock)");
    }

    #[test]
    fn names_the_step_and_the_difference() {
        let (passed, message, _) = judge(&Deterministic::default(), &report(turn("tip 1", "a"), turn("tip 3", "a")));
        assert!(!passed);
        assert_eq!(
            message,
            "the second run (varied: seed, clock) differs at step 1 (emit turn_start): after.input[0].content: \"tip 1\" vs \"tip 3\""
        );
    }

    #[test]
    fn fails_with_nothing_to_repeat() {
        let empty = Observation::Repeated {
            report: Box::new(RepeatReport { probes: Vec::new(), varied: Vec::new(), first: Vec::new(), second: Vec::new() }),
        };
        let (passed, message, _) = judge(&Deterministic::default(), &empty);
        assert!(!passed);
        assert!(message.starts_with("nothing to repeat"), "{message}");
    }
}
