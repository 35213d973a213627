//! What one mod shows its author under one capability profile: whether it
//! loaded, its diagnostics (normalised) and what it registered.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use modlearn_engine::{CandidateFile, Engine, EngineError, EngineOptions, VIRTUAL_EPOCH_MS};
use modlearn_machine::{Machine, MachinePlan};
use modlearn_types::{Diagnostic, RegistrySnapshot, Severity};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::normalise::Normaliser;

/// One mod under one profile, as stored in the snapshot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Surface {
    /// Whether the mod imported and activated.
    pub loaded: bool,
    /// The engine itself failed (a modlearn bug, not the mod's fault).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_error: Option<String>,
    /// Diagnostics of load, activate and dispose, in the order recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<CheckDiagnostic>,
    /// What the mod registered after activating.
    #[serde(default)]
    pub registered: Registrations,
}

/// A diagnostic with everything machine-specific taken out: no stack, no
/// timestamp, no owner, paths relative to the mod's directory, no line and
/// column numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckDiagnostic {
    /// `import`, `activate`, `dispose`, ...
    pub phase: String,
    /// `error` or `warning`.
    pub severity: String,
    /// The fault kind (`exception`, `timeout`, `host_access`, ...).
    pub fault: String,
    /// The capability involved, as `kind:id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capability: Option<String>,
    /// The JavaScript error's name.
    pub error_name: String,
    /// The message, normalised.
    pub message: String,
    /// The hint, normalised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl CheckDiagnostic {
    /// The diagnostic's identity for pairing old and new versions in a diff.
    pub(crate) fn identity(&self) -> (&str, &str, Option<&str>) {
        (&self.phase, &self.fault, self.capability.as_deref())
    }

    /// One line: `phase/fault severity [capability] ErrorName: message`.
    pub fn summary(&self) -> String {
        let capability = self.capability.as_ref().map(|c| format!(" [{c}]")).unwrap_or_default();
        format!("{}/{} {}{capability} {}: {}", self.phase, self.fault, self.severity, self.error_name, self.message)
    }
}

/// A registered tool, without its owner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolEntry {
    /// Tool name.
    pub name: String,
    /// Description shown to the model.
    pub description: String,
    /// JSON Schema of its arguments.
    pub parameters: Value,
    /// `auto`, `ask` or `alwaysAsk`.
    pub approval_policy: String,
    /// Whether a call needs approval.
    pub requires_approval: bool,
    /// Whether calls may run in parallel.
    pub parallel_safe: bool,
}

/// A registered slash command, without its owner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CommandEntry {
    /// Command id (without `/`).
    pub id: String,
    /// Description.
    pub description: String,
    /// Sort order, as the mod gave it.
    pub order: serde_json::Value,
}

/// Everything a mod registered, in registration order, owners removed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Registrations {
    /// Handler count per event.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub events: BTreeMap<String, usize>,
    /// Tools.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolEntry>,
    /// Slash commands.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<CommandEntry>,
    /// Permission overlays (`id`, `description`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub permissions: Vec<Value>,
    /// Providers (`name`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub providers: Vec<Value>,
    /// Panels (`id`, `order`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub panels: Vec<Value>,
}

impl Registrations {
    fn from_snapshot(snapshot: &RegistrySnapshot) -> Self {
        Self {
            events: snapshot.events.iter().filter(|(_, count)| **count > 0).map(|(k, v)| (k.clone(), *v)).collect(),
            tools: snapshot
                .tools
                .iter()
                .map(|tool| ToolEntry {
                    name: tool.name.clone(),
                    description: tool.description.clone(),
                    parameters: tool.parameters.clone(),
                    approval_policy: tool.approval_policy.clone(),
                    requires_approval: tool.requires_approval,
                    parallel_safe: tool.parallel_safe,
                })
                .collect(),
            commands: snapshot
                .commands
                .iter()
                .map(|c| CommandEntry { id: c.id.clone(), description: c.description.clone(), order: c.order.clone() })
                .collect(),
            permissions: snapshot.permissions.iter().map(without_owner).collect(),
            providers: snapshot.providers.iter().map(without_owner).collect(),
            panels: snapshot.panels.iter().map(without_owner).collect(),
        }
    }
}

/// The owner id holds the mod's absolute path: not part of what is pinned.
fn without_owner(value: &Value) -> Value {
    let mut value = value.clone();
    if let Some(object) = value.as_object_mut() {
        object.remove("mod");
    }
    value
}

/// Loads `path` in a fresh engine under `options.profile`, records what it
/// registered, disposes it, and returns the surface. Never fails: an engine
/// failure is recorded in [`Surface::engine_error`].
pub fn observe_surface(path: &Path, source: &str, options: &EngineOptions) -> Surface {
    let normaliser = Normaliser::for_mod(path);
    match run(path, source, options) {
        Ok((loaded, registered, diagnostics)) => {
            Surface { loaded, engine_error: None, diagnostics: diagnostics.iter().map(|d| normalise(d, &normaliser)).collect(), registered }
        }
        Err(error) => Surface {
            loaded: false,
            engine_error: Some(normaliser.text(&error.to_string())),
            diagnostics: error.stop_diagnostic().iter().map(|d| normalise(d, &normaliser)).collect(),
            registered: Registrations::default(),
        },
    }
}

fn run(path: &Path, source: &str, options: &EngineOptions) -> Result<(bool, Registrations, Vec<Diagnostic>), EngineError> {
    // On a machine of its own, as in a scenario: a mod that reads or writes files as it loads does.
    let file_name = path.file_name().map_or_else(|| "mod.js".to_owned(), |name| name.to_string_lossy().into_owned());
    let machine = Machine::new(MachinePlan::for_candidate(&file_name, source), VIRTUAL_EPOCH_MS);
    let mut engine = Engine::with_machine(options.clone(), Arc::new(machine))?;
    engine.new_generation()?;
    let outcome = engine.load(&CandidateFile { path, source })?;
    let after_load = engine.snapshot()?;
    engine.dispose()?;
    // The generation's diagnostics after disposal include the disposers' own.
    let after_dispose = engine.snapshot()?;
    Ok((outcome.loaded, Registrations::from_snapshot(&after_load), after_dispose.diagnostics))
}

fn normalise(diagnostic: &Diagnostic, normaliser: &Normaliser) -> CheckDiagnostic {
    CheckDiagnostic {
        phase: diagnostic.phase.clone(),
        severity: match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
        .to_owned(),
        fault: diagnostic.fault.as_str().to_owned(),
        capability: diagnostic.capability.as_ref().map(|c| format!("{}:{}", c.kind, c.id)),
        error_name: diagnostic.error_name.clone(),
        message: normaliser.text(&diagnostic.message),
        hint: diagnostic.hint.as_ref().map(|hint| normaliser.text(hint)),
    }
}
