use modlearn_spec::Assertion;
use modlearn_types::{CheckResult, Observation, Probe};
use serde_json::Value;

use crate::checks;

/// What the engine must do for `assertion`.
pub fn probe(assertion: &Assertion) -> Probe {
    match assertion {
        Assertion::ModLoads(_) => checks::mod_loads::probe(),
        Assertion::TurnStartInjectsMessage(a) => checks::turn_start_injects_message::probe(a),
        Assertion::ToolStartRewritesArgs(a) => checks::tool_start_args::probe(&a.tool_name, &a.args),
        Assertion::ToolStartPreservesArgs(a) => checks::tool_start_args::probe(&a.tool_name, &a.args),
    }
}

/// Judges the `index`-th assertion of a scenario from its observation.
pub fn judge(index: usize, assertion: &Assertion, observation: &Observation) -> CheckResult {
    let (passed, message, details) = match observation {
        Observation::EngineFailure { message } => (false, format!("the engine failed: {message}"), Value::Null),
        Observation::Rejected { message } => (false, format!("the event was rejected: {message}"), Value::Null),
        observation => match assertion {
            Assertion::ModLoads(a) => checks::mod_loads::judge(a, observation),
            Assertion::TurnStartInjectsMessage(a) => checks::turn_start_injects_message::judge(a, observation),
            Assertion::ToolStartRewritesArgs(a) => checks::tool_start_args::judge_rewrite(a, observation),
            Assertion::ToolStartPreservesArgs(a) => checks::tool_start_args::judge_preserve(a, observation),
        },
    };
    CheckResult { label: assertion.label(index), kind: assertion.type_name().to_owned(), passed, message, details }
}

/// The outcome a check module returns: passed, message, details.
pub(crate) type Judged = (bool, String, Value);

/// Fails a check whose observation has the wrong shape (a bug, but a visible one).
pub(crate) fn unexpected(observation: &Observation) -> Judged {
    (false, format!("unexpected observation: {observation:?}"), Value::Null)
}
