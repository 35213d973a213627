//! The seed of the engine's side of a candidate's machine: what the mod's process starts with
//! (see `js/world.js`). Files and commands are the machine's own (modlearn-machine).

use std::collections::BTreeMap;

use modlearn_types::DialogAnswer;
use serde::{Deserialize, Serialize};

/// The environment of the mod's process, and who answers its dialogs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorldSeed {
    /// Environment variables, over the defaults (`HOME`, `USER`, `PATH`, ...). The host's own
    /// environment never reaches a mod.
    pub env: BTreeMap<String, String>,
    /// How the person at the keyboard answers dialogs; `None`: nobody is there (headless).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialogs: Option<Vec<DialogAnswer>>,
}
