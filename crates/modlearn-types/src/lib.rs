//! Data that flows between modlearn's pipeline stages.
//!
//! The engine produces these values, the judge reads them and the recorder
//! writes them; none of those stages needs another's internals. Field names
//! follow Letta Code's JSON (camelCase), so readers of Letta's diagnostics
//! and reports read modlearn's.
#![deny(missing_docs)]

pub mod bound;
mod diagnostic;
mod dialect;
mod dialog;
mod invocation;
mod lifecycle;
mod probe;
mod registry;
mod report;
pub mod untrusted;
mod verdict;
mod world;

pub use diagnostic::{Capability, Diagnostic, Fault, ModOwner, Severity};
pub use dialect::Dialect;
pub use dialog::{DialogAnswer, DialogKind};
pub use invocation::{CommandInvocation, CommandRun, PermissionCheck, PermissionConsultation, PermissionDecision, ToolRun};
pub use lifecycle::{
    CheckedDispose, ConversationPlan, ConversationRun, ConversationsReport, DisposeReport, GlobalState, Leftovers, PendingPromise,
    PendingTimer, ProcessListener, ProfileCapabilities, ProfileReport, Registrations, ReloadCycle, RepeatReport, Settled, SignalState,
    Subscription,
};
pub use probe::{AppendedMessages, Compared, LiveCompare, Observation, Probe};
pub use registry::{ConsoleLine, Emission, RegisteredCommand, RegisteredTool, RegistrySnapshot, ServiceUse};
pub use report::{Attempt, EvalUsage, Learning, Proposal, RunReport, Selected, SpecSummary, UsageTotals};
pub use verdict::{CandidateVerdict, CheckResult, ScenarioVerdict};
pub use world::{
    CommandEffect, Effect, EntryKind, EnvRead, FileChange, FileEffect, FileWritten, MachineCommand, NetworkAttempt, OtherScenario,
    ProgramOrigin, ProgramRun, WorldState, WorldSummary, WrittenFile, machine_path,
};
