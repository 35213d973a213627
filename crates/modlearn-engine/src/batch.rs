//! Requests an engine runs back to back. A scenario's fixed steps (new generation, load,
//! probes, snapshot, dispose, console) do not depend on each other's replies, only on each
//! other succeeding, so they travel to an engine process in one frame, and the engine never
//! waits for modlearn between them (each reply still goes back as soon as it is ready). Each
//! request runs under its own budgets, exactly as it would alone.

use std::marker::PhantomData;
use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use modlearn_types::{CommandRun, ConsoleLine, LiveCompare, PermissionCheck, RegistrySnapshot, ToolRun};

use crate::engine::{CandidateFile, DisposeOutcome, EmitOutcome, EngineError, LoadOutcome};
use crate::local::parse;
use crate::protocol::{HostMethod, Operation};

/// One request to an engine.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) enum Request {
    /// [`crate::Engine::load`] and [`crate::Engine::reload`].
    Load {
        /// The candidate's path as given (it names the owner; the engine never opens it).
        path: PathBuf,
        /// Its text.
        source: String,
        /// Keep the module instance of an unchanged file (Letta's `/reload`).
        keep_instance: bool,
    },
    /// Runs an operation step by step.
    Operate(Operation),
    /// Calls one host method.
    Call {
        /// Which.
        method: HostMethod,
        /// Its argument.
        args: Value,
    },
}

impl Request {
    /// The diagnostic phase of mod code this request can run (for a process that dies in it).
    pub(crate) fn phase(&self) -> &'static str {
        match self {
            Request::Load { .. } => "activate",
            Request::Operate(operation) => operation.phase(),
            Request::Call { .. } => "timer",
        }
    }
}

/// Requests for [`crate::Engine::run`], in the order they run. Each method queues one and
/// returns the ticket its reply is taken with.
#[derive(Debug, Default)]
pub struct Batch {
    pub(crate) requests: Vec<Request>,
}

/// Where one request's reply is in [`Replies`], and how to read it.
#[must_use = "a reply is read with its ticket"]
pub struct Ticket<T> {
    index: usize,
    read: fn(&str) -> Result<T, String>,
    marker: PhantomData<fn() -> T>,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    fn push<T: DeserializeOwned>(&mut self, request: Request) -> Ticket<T> {
        self.push_read(request, parse::<T>)
    }

    fn push_read<T>(&mut self, request: Request, read: fn(&str) -> Result<T, String>) -> Ticket<T> {
        self.requests.push(request);
        Ticket { index: self.requests.len() - 1, read, marker: PhantomData }
    }

    /// See [`crate::Engine::new_generation`].
    pub fn new_generation(&mut self) -> Ticket<u64> {
        self.generation(false)
    }

    /// See [`crate::Engine::reload_generation`].
    pub fn reload_generation(&mut self) -> Ticket<u64> {
        self.generation(true)
    }

    fn generation(&mut self, keep_world: bool) -> Ticket<u64> {
        #[derive(Deserialize)]
        struct Generation {
            generation: u64,
        }
        let request = Request::Call { method: HostMethod::NewGeneration, args: json!({ "keepWorld": keep_world }) };
        self.push_read(request, |text| parse::<Generation>(text).map(|reply| reply.generation))
    }

    /// See [`crate::Engine::load`] and [`crate::Engine::reload`] (`keep_instance`).
    pub fn load(&mut self, candidate: &CandidateFile<'_>, keep_instance: bool) -> Ticket<LoadOutcome> {
        self.push(Request::Load { path: candidate.path.to_path_buf(), source: candidate.source.to_owned(), keep_instance })
    }

    /// See [`crate::Engine::emit_compared`].
    pub fn emit_compared(&mut self, name: &str, event: &Value, compare: Option<&LiveCompare>) -> Ticket<EmitOutcome> {
        self.operate(Operation::Emit { name: name.to_owned(), event: event.clone(), compare: compare.cloned() })
    }

    /// See [`crate::Engine::run_tool`].
    pub fn run_tool(&mut self, tool_name: &str, args: &Value, tool_call_id: &str) -> Ticket<ToolRun> {
        self.operate(Operation::RunTool { tool_name: tool_name.to_owned(), args: args.clone(), tool_call_id: tool_call_id.to_owned() })
    }

    /// See [`crate::Engine::check_permissions`].
    pub fn check_permissions(&mut self, event: &Value) -> Ticket<PermissionCheck> {
        self.operate(Operation::CheckPermissions { event: event.clone() })
    }

    /// See [`crate::Engine::run_command`].
    pub fn run_command(&mut self, command: &str, args: &str) -> Ticket<CommandRun> {
        self.operate(Operation::RunCommand { command: command.to_owned(), args: args.to_owned() })
    }

    /// See [`crate::Engine::dispose`].
    pub fn dispose(&mut self) -> Ticket<DisposeOutcome> {
        self.operate(Operation::Dispose)
    }

    /// See [`crate::Engine::snapshot`].
    pub fn snapshot(&mut self) -> Ticket<RegistrySnapshot> {
        self.push(call(HostMethod::Snapshot))
    }

    /// See [`crate::Engine::take_console`].
    pub fn take_console(&mut self) -> Ticket<Vec<ConsoleLine>> {
        #[derive(Deserialize)]
        struct Taken {
            lines: Vec<ConsoleLine>,
        }
        self.push_read(call(HostMethod::TakeConsole), |text| parse::<Taken>(text).map(|taken| taken.lines))
    }

    pub(crate) fn operate<T: DeserializeOwned>(&mut self, operation: Operation) -> Ticket<T> {
        self.push(Request::Operate(operation))
    }

    pub(crate) fn call<T: DeserializeOwned>(&mut self, method: HostMethod, args: Value) -> Ticket<T> {
        self.push(Request::Call { method, args })
    }
}

fn call(method: HostMethod) -> Request {
    Request::Call { method, args: json!({}) }
}

/// The replies of a batch, one per request, each taken once with its ticket.
#[derive(Debug)]
pub struct Replies {
    replies: Vec<Option<Result<String, EngineError>>>,
}

impl Replies {
    pub(crate) fn new(replies: Vec<Result<String, EngineError>>) -> Replies {
        Replies { replies: replies.into_iter().map(Some).collect() }
    }

    /// The reply `ticket` stands for. Once a request failed, every later one has its error:
    /// the engine did not run them.
    pub fn take<T>(&mut self, ticket: Ticket<T>) -> Result<T, EngineError> {
        let reply = self.replies.get_mut(ticket.index).and_then(Option::take);
        let text = reply.unwrap_or_else(|| Err(EngineError::Host("a reply was taken twice or never sent".to_owned())))?;
        (ticket.read)(&text).map_err(EngineError::Host)
    }
}

/// Runs `requests` in order with `run`, handing each reply to `reply`. Once one fails, the
/// rest are not run: each gets that failure, as the caller stops at the first failure and the
/// engine may no longer be fit to run anything.
pub(crate) fn run_in_order(
    requests: Vec<Request>,
    mut run: impl FnMut(Request) -> Result<String, EngineError>,
    mut reply: impl FnMut(Result<String, EngineError>),
) {
    let mut failed: Option<EngineError> = None;
    for request in requests {
        let result = match &failed {
            Some(error) => Err(error.clone()),
            None => run(request),
        };
        if let Err(error) = &result {
            failed.get_or_insert_with(|| error.clone());
        }
        reply(result);
    }
}

#[cfg(test)]
mod tests {
    use super::{Request, run_in_order};
    use crate::engine::EngineError;
    use crate::protocol::HostMethod;

    #[test]
    fn requests_after_a_failure_are_not_run_and_get_its_error() {
        let requests = vec![
            Request::Call { method: HostMethod::Snapshot, args: serde_json::json!(1) },
            Request::Call { method: HostMethod::Snapshot, args: serde_json::json!(2) },
            Request::Call { method: HostMethod::Snapshot, args: serde_json::json!(3) },
        ];
        let mut ran = Vec::new();
        let mut replies = Vec::new();
        run_in_order(
            requests,
            |request| {
                let Request::Call { args, .. } = request else { unreachable!() };
                ran.push(args.clone());
                if args == 2 { Err(EngineError::Host("second".to_owned())) } else { Ok(args.to_string()) }
            },
            |result| replies.push(result.map_err(|error| error.to_string())),
        );
        assert_eq!(ran, [serde_json::json!(1), serde_json::json!(2)]);
        let second = Err("modlearn's host code failed: second".to_owned());
        assert_eq!(replies, [Ok("1".to_owned()), second.clone(), second]);
    }
}
