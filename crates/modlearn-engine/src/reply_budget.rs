//! Bounds on what an engine's replies may carry. modlearn keeps a candidate's observations
//! until its report is written, and a parsed JSON value costs it tens of bytes however short
//! its text: a mod that hangs millions of empty arrays on an event object would otherwise
//! grow modlearn's own memory by gigabytes, outside any engine's cap. And a reply must fit in
//! one worker frame, escaped.

use crate::engine::{EngineError, StopFault};

/// The longest reply: escaped into a frame (at most six bytes a byte) it stays under the
/// frame bound. A snapshot with thousands of registrations is a few hundred KiB.
pub(crate) const MAX_REPLY_BYTES: usize = 8 << 20;

/// The JSON values (containers and scalars, roughly) all of one engine's replies may hold
/// together: some 100 MB of modlearn's memory at worst, and hundreds of times what a spec's
/// scenarios need.
pub(crate) const MAX_VALUES_PER_ENGINE: usize = 2_000_000;

/// What one engine's replies have used of their bounds. Once a reply breaks one, every later
/// request gets that reply's error: the engine's state is past judging.
#[derive(Debug)]
pub(crate) struct ReplyBudget {
    values_left: usize,
    broken: Option<EngineError>,
}

impl Default for ReplyBudget {
    fn default() -> Self {
        ReplyBudget { values_left: MAX_VALUES_PER_ENGINE, broken: None }
    }
}

impl ReplyBudget {
    /// Passes `reply` on, or the error of the bound it breaks.
    pub(crate) fn admit(&mut self, phase: &str, reply: String) -> Result<String, EngineError> {
        if let Some(error) = &self.broken {
            return Err(error.clone());
        }
        let why = if reply.len() > MAX_REPLY_BYTES {
            Some(format!("a reply of {} MiB, over the {} MiB bound", reply.len() >> 20, MAX_REPLY_BYTES >> 20))
        } else {
            let values = count_values(reply.as_bytes());
            match self.values_left.checked_sub(values) {
                Some(left) => {
                    self.values_left = left;
                    None
                }
                None => Some(format!("replies holding more than {MAX_VALUES_PER_ENGINE} JSON values together")),
            }
        };
        let Some(why) = why else {
            return Ok(reply);
        };
        let error = EngineError::Stopped {
            fault: StopFault::OutOfMemory,
            phase: phase.to_owned(),
            message: format!("mod code in the {phase} phase made values too large to judge ({why}); the engine was stopped"),
        };
        self.broken = Some(error.clone());
        Err(error)
    }
}

/// About how many values `json` holds: one for each container opened and each separator
/// outside strings, plus one. Linear, no allocation.
fn count_values(json: &[u8]) -> usize {
    let mut values = 1;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in json {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else {
            match byte {
                b'"' => in_string = true,
                b'[' | b'{' | b',' => values += 1,
                _ => {}
            }
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::{MAX_REPLY_BYTES, MAX_VALUES_PER_ENGINE, ReplyBudget, count_values};
    use crate::engine::{EngineError, StopFault};

    #[test]
    fn counts_containers_and_separators_outside_strings() {
        assert_eq!(count_values(b"1"), 1);
        // Four values, counted as seven: the bound is rough, never below the truth.
        assert_eq!(count_values(b"[[],[],[]]"), 7);
        assert_eq!(count_values(br#"{"a":"x,[{","b":"\"],"}"#), 3);
    }

    #[test]
    fn a_reply_past_a_bound_stops_the_engine_for_every_later_request() {
        let mut budget = ReplyBudget::default();
        assert_eq!(budget.admit("event", "[1,2]".to_owned()).ok().as_deref(), Some("[1,2]"));
        let huge = "[],".repeat(MAX_VALUES_PER_ENGINE / 3);
        let huge = format!("[{huge}1]");
        assert!(huge.len() <= MAX_REPLY_BYTES);
        assert_eq!(budget.admit("event", huge.clone()).ok().map(|reply| reply.len()), Some(huge.len()));
        let Err(EngineError::Stopped { fault, phase, message }) = budget.admit("event", huge) else {
            panic!("the second reply breaks the bound");
        };
        assert_eq!((fault, phase.as_str()), (StopFault::OutOfMemory, "event"));
        assert!(message.contains("more than 2000000 JSON values"), "{message}");
        assert!(budget.admit("snapshot", "{}".to_owned()).is_err());
    }

    #[test]
    fn a_reply_too_long_for_a_frame_is_refused() {
        let mut budget = ReplyBudget::default();
        let long = format!("\"{}\"", "x".repeat(MAX_REPLY_BYTES));
        let Err(error) = budget.admit("load", long) else { panic!("too long") };
        assert!(error.to_string().contains("a reply of 8 MiB, over the 8 MiB bound"), "{error}");
    }
}
