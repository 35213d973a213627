//! The built-in mutants: each a real `.js` template under `mutants/`, rendered
//! with spec-derived data that is injected as a JSON string literal, never as
//! code.

use serde::Serialize;

use modlearn_spec::Dialect;

use crate::data::MutantData;

/// The placeholder a template reads its data from: `JSON.parse(__MUTANT_DATA__)`.
pub const DATA_PLACEHOLDER: &str = "__MUTANT_DATA__";

/// One built-in wrong mod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mutant {
    /// `activate` does nothing.
    Noop,
    /// A handler for every event; each changes nothing.
    AllHandlersPassthrough,
    /// `activate` throws.
    ThrowsInActivate,
    /// Appends the spec's reminder at every turn_start and does nothing else.
    OnlyReminder,
    /// Applies the spec's first rewrite example to every tool call.
    RewriteEverything,
    /// Right on the spec's turn_start and tool_start examples, but never cleans up.
    NeverDisposes,
}

impl Mutant {
    /// Every mutant, in the order reports list them.
    pub const ALL: [Mutant; 6] = [
        Mutant::Noop,
        Mutant::AllHandlersPassthrough,
        Mutant::ThrowsInActivate,
        Mutant::OnlyReminder,
        Mutant::RewriteEverything,
        Mutant::NeverDisposes,
    ];

    /// The mutant's name, which is also its template's file stem.
    pub fn name(self) -> &'static str {
        match self {
            Mutant::Noop => "noop",
            Mutant::AllHandlersPassthrough => "all-handlers-passthrough",
            Mutant::ThrowsInActivate => "throws-in-activate",
            Mutant::OnlyReminder => "only-reminder",
            Mutant::RewriteEverything => "rewrite-everything",
            Mutant::NeverDisposes => "never-disposes",
        }
    }

    /// What the mutant does wrong, in one sentence.
    pub fn description(self) -> &'static str {
        match self {
            Mutant::Noop => "activate does nothing",
            Mutant::AllHandlersPassthrough => "registers a handler for every event and changes nothing",
            Mutant::ThrowsInActivate => "throws in activate",
            Mutant::OnlyReminder => "only appends the spec's reminder at turn_start",
            Mutant::RewriteEverything => "applies the first rewrite example to every tool call",
            Mutant::NeverDisposes => {
                "appends the reminder and replays the rewrite examples, but keeps timers running, ignores its signal and returns no disposer"
            }
        }
    }

    /// What the spec fails to check, for a spec the mutant survives.
    pub fn blind_spot(self) -> &'static str {
        match self {
            Mutant::Noop => "no check needs the mod to do anything",
            Mutant::AllHandlersPassthrough => "no check needs a handler to change anything",
            Mutant::ThrowsInActivate => "no check needs activate to succeed",
            Mutant::OnlyReminder => "no check needs anything beyond the turn_start reminder",
            Mutant::RewriteEverything => "no check needs any other call's args to stay as they are",
            Mutant::NeverDisposes => "no check disposes the mod and looks for what it left running",
        }
    }

    /// What kind of check would catch the mutant, for a spec it survives.
    pub fn kill_hint(self) -> &'static str {
        match self {
            Mutant::Noop => "add an assertion the mod must act to pass: a rewrite, an injected message, a registered tool or command",
            Mutant::AllHandlersPassthrough => {
                "add an assertion that needs a change (tool_start_rewrites_args, turn_start_injects_message, tool_start_blocks, ...), not only unchanged args"
            }
            Mutant::ThrowsInActivate => "add a `mod_loads` assertion, or any assertion that needs a registered handler",
            Mutant::OnlyReminder => {
                "check the other requirements too: tool_start rewrites or negative controls, tools, permissions, commands"
            }
            Mutant::RewriteEverything => {
                "add negative controls: tool_start_preserves_args for other tools and for args the mod must leave alone"
            }
            Mutant::NeverDisposes => "add a `disposes_cleanly` assertion (timers, handlers and the signal after dispose)",
        }
    }

    /// The template text for `dialect`, as committed under `mutants/` (`mutants/pi/`, `mutants/dsh/`).
    pub fn template(self, dialect: Dialect) -> &'static str {
        macro_rules! by_dialect {
            ($file:literal) => {
                match dialect {
                    Dialect::Letta => include_str!(concat!("../mutants/", $file)),
                    Dialect::Pi => include_str!(concat!("../mutants/pi/", $file)),
                    Dialect::Dsh => include_str!(concat!("../mutants/dsh/", $file)),
                }
            };
        }
        match self {
            Mutant::Noop => by_dialect!("noop.js"),
            Mutant::AllHandlersPassthrough => by_dialect!("all-handlers-passthrough.js"),
            Mutant::ThrowsInActivate => by_dialect!("throws-in-activate.js"),
            Mutant::OnlyReminder => by_dialect!("only-reminder.js"),
            Mutant::RewriteEverything => by_dialect!("rewrite-everything.js"),
            Mutant::NeverDisposes => by_dialect!("never-disposes.js"),
        }
    }

    /// The mod source: the template with `data` in place of [`DATA_PLACEHOLDER`], as a JSON
    /// string literal that the template parses (so no spec text is ever read as code, and keys
    /// such as `__proto__` stay plain keys).
    pub fn render(self, data: &MutantData, dialect: Dialect) -> String {
        let json = serde_json::to_string(data).expect("mutant data serializes");
        let literal = serde_json::to_string(&json).expect("a string serializes");
        // JSON allows these two line terminators inside strings; older JS parsers do not.
        let literal = literal.replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029");
        self.template(dialect).replace(DATA_PLACEHOLDER, &literal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_that_read_data_name_the_placeholder_once() {
        for dialect in [Dialect::Letta, Dialect::Pi, Dialect::Dsh] {
            for mutant in Mutant::ALL {
                let count = mutant.template(dialect).matches(DATA_PLACEHOLDER).count();
                let reads_data = matches!(mutant, Mutant::OnlyReminder | Mutant::RewriteEverything | Mutant::NeverDisposes);
                assert_eq!(count, usize::from(reads_data), "{} ({})", mutant.name(), dialect.as_str());
            }
        }
    }

    #[test]
    fn rendering_injects_a_string_literal_not_code() {
        let mut data = MutantData::generic();
        data.reminder.text = "\"); globalThis.pwned = 1; (\"\u{2028}".to_owned();
        let source = Mutant::OnlyReminder.render(&data, Dialect::Letta);
        assert!(!source.contains(DATA_PLACEHOLDER));
        let start = source.find("JSON.parse(").unwrap() + "JSON.parse(".len();
        let end = source[start..].find(");\n").unwrap() + start;
        let literal: String = serde_json::from_str(&source[start..end]).unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&literal).unwrap();
        assert_eq!(parsed["reminder"]["text"], data.reminder.text.as_str());
        assert!(!source[start..end].contains('\u{2028}'));
    }
}
