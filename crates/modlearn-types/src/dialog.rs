use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The dialogs an extension can open on the person at the keyboard (Pi's `ctx.ui`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DialogKind {
    /// `ctx.ui.confirm(title, message)`: yes or no.
    Confirm,
    /// `ctx.ui.select(title, options)`: one of the options.
    Select,
    /// `ctx.ui.input(title, placeholder)`: a line of text.
    Input,
    /// `ctx.ui.editor(title, prefill)`: a text.
    Editor,
}

impl DialogKind {
    /// The name specs use.
    pub fn as_str(self) -> &'static str {
        match self {
            DialogKind::Confirm => "confirm",
            DialogKind::Select => "select",
            DialogKind::Input => "input",
            DialogKind::Editor => "editor",
        }
    }
}

/// How the scripted person answers dialogs of one kind: the first rule whose kind matches and
/// whose `titleContains` is in the dialog's title answers it, every time it matches. A dialog no
/// rule answers is dismissed, as a person pressing Escape would.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DialogAnswer {
    /// Which dialog this answers.
    pub dialog: DialogKind,
    /// Answer only dialogs whose title contains this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_contains: Option<String>,
    /// `true`/`false` for `confirm`, the chosen option for `select`, the text for `input` and
    /// `editor`; `null` dismisses the dialog.
    pub answer: serde_json::Value,
    /// Whether a `select`, `input` or `editor` answer agrees to what the dialog asks (`"Allow"`
    /// is a yes, `"Deny"` a no): `asks_approval` reads it so. Unset, such an answer says neither,
    /// and `asks_approval` cannot judge the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assents: Option<bool>,
}

impl DialogAnswer {
    /// Why `answer` cannot answer this kind of dialog, if it cannot.
    pub fn mismatch(&self) -> Option<String> {
        let fits = match self.dialog {
            DialogKind::Confirm => self.answer.is_boolean(),
            DialogKind::Select | DialogKind::Input | DialogKind::Editor => self.answer.is_string(),
        };
        if fits || self.answer.is_null() {
            return None;
        }
        let wanted = match self.dialog {
            DialogKind::Confirm => "true or false",
            DialogKind::Select => "the option to choose (a string)",
            DialogKind::Input | DialogKind::Editor => "the text to enter (a string)",
        };
        Some(format!("a `{}` dialog is answered with {wanted}, or null to dismiss it", self.dialog.as_str()))
    }
}
