use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which host's plugin API a candidate is written against.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// A Letta Code mod: `activate(letta)` (or a default function), returning a disposer.
    #[default]
    Letta,
    /// A Pi extension: a default-exported factory `(pi) => void | Promise<void>`.
    Pi,
    /// A DeepSeek Harness plugin: a Cordis plugin (`name`, `inject`, `apply(ctx, config)`, or a
    /// `Service` class).
    Dsh,
}

impl Dialect {
    /// The name specs and the engine use.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Letta => "letta",
            Dialect::Pi => "pi",
            Dialect::Dsh => "dsh",
        }
    }

    /// Whether this is the default (Letta), which specs leave out.
    pub fn is_letta(&self) -> bool {
        *self == Dialect::Letta
    }

    /// The host release each verdict of this dialect is judged against: Letta Code at the commit
    /// the Letta differential last agreed with, Pi at the release `scripts/refresh-vendor-pi`
    /// vendors, DeepSeek Harness at the commit `scripts/refresh-vendor-dsh` pins.
    pub fn host(self) -> &'static str {
        match self {
            Dialect::Letta => "Letta Code 1f4d3e3ea",
            Dialect::Pi => "Pi 1.6.0",
            Dialect::Dsh => "DeepSeek Harness b150a551 (0.1.1-rc.2)",
        }
    }

    /// What the host calls a candidate, for messages and prompts.
    pub fn candidate_noun(self) -> &'static str {
        match self {
            Dialect::Letta => "mod",
            Dialect::Pi => "extension",
            Dialect::Dsh => "plugin",
        }
    }
}
