//! A scripted model server on `127.0.0.1`, for tests.
//!
//! It speaks OpenAI Chat Completions (`POST /v1/chat/completions`) and
//! Anthropic Messages (`POST /v1/messages`) on a random port, so the base
//! URLs [`TestServer::base_url_openai`] (`http://127.0.0.1:PORT/v1`) and
//! [`TestServer::base_url_anthropic`] (`http://127.0.0.1:PORT`) work with real
//! clients. Each model name has a script (a queue of [`Reply`]s, the last one
//! repeated) or a responder closure; `"*"` matches every model without one of
//! its own. Every request is recorded, with how many were in flight when it
//! arrived. The server runs on its own thread and runtime, so sync and async
//! callers use it alike, and stops when dropped.
//!
//! ```no_run
//! use std::time::Duration;
//! use modlearn_testserver::{Reply, TestServer};
//!
//! let server = TestServer::start_blocking();
//! server.script("gpt-test", vec![
//!     Reply::status(429).retry_after(1),
//!     Reply::text("```js\nexport function activate() {}\n```").usage(100, 20).after(Duration::from_millis(50)),
//! ]);
//! let base_url = server.base_url_openai();
//! // ... point a client at base_url, then:
//! assert_eq!(server.requests().len(), 2);
//! ```
#![deny(missing_docs)]

mod record;
mod reply;

use std::collections::{HashMap, VecDeque};
use std::future::IntoFuture;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use tokio::sync::oneshot;

pub use record::{RecordedRequest, ToolResult};
pub use reply::{Api, Gate, NO_CODE_TEXT, Reply};

/// Chooses a reply from the request.
pub type Responder = Arc<dyn Fn(&RecordedRequest) -> Reply + Send + Sync>;

enum Behaviour {
    Script(VecDeque<Reply>),
    Respond(Responder),
}

#[derive(Default)]
struct Shared {
    state: Mutex<ServerState>,
    in_flight: AtomicUsize,
}

#[derive(Default)]
struct ServerState {
    behaviours: HashMap<String, Behaviour>,
    requests: Vec<RecordedRequest>,
    max_in_flight: usize,
}

impl Shared {
    /// A panicking responder must not break every later request.
    fn lock(&self) -> MutexGuard<'_, ServerState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A running server; dropping it stops it.
pub struct TestServer {
    shared: Arc<Shared>,
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server (for async callers; it runs on its own thread).
    pub async fn start() -> TestServer {
        TestServer::start_blocking()
    }

    /// Starts a server on its own thread and tokio runtime.
    pub fn start_blocking() -> TestServer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        listener.set_nonblocking(true).expect("make the listener non-blocking");
        let addr = listener.local_addr().expect("listener address");
        let shared = Arc::new(Shared::default());
        let app = Router::new()
            .route("/v1/chat/completions", post(openai))
            .route("/chat/completions", post(openai))
            .route("/v1/messages", post(anthropic))
            .with_state(shared.clone());
        let (shutdown, stop) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name(format!("testserver-{}", addr.port()))
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
                    // Not a graceful shutdown: dropping the runtime cancels
                    // requests still sleeping in a scripted delay.
                    tokio::select! {
                        _ = axum::serve(listener, app).into_future() => {}
                        _ = stop => {}
                    }
                });
            })
            .expect("spawn the test server thread");
        TestServer { shared, addr, shutdown: Some(shutdown), thread: Some(thread) }
    }

    /// The server's address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT/v1`, as `OPENAI_BASE_URL` takes it.
    pub fn base_url_openai(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// `http://127.0.0.1:PORT`, as `ANTHROPIC_BASE_URL` takes it.
    pub fn base_url_anthropic(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Scripts `model` (`"*"`: every model without its own): replies are
    /// given in order, the last one repeated. Replaces any earlier script.
    pub fn script(&self, model: &str, replies: Vec<Reply>) {
        self.shared.lock().behaviours.insert(model.to_owned(), Behaviour::Script(replies.into()));
    }

    /// Answers `model` (`"*"`: every model without its own) by calling
    /// `responder` on each request.
    pub fn respond_with(&self, model: &str, responder: impl Fn(&RecordedRequest) -> Reply + Send + Sync + 'static) {
        self.shared.lock().behaviours.insert(model.to_owned(), Behaviour::Respond(Arc::new(responder)));
    }

    /// Scripts `model` by conversation turn: the request for assistant turn
    /// `t` (see [`RecordedRequest::turn`]) gets `replies[t - 1]`, the last
    /// one repeated. Parallel conversations each follow the script.
    pub fn session(&self, model: &str, replies: Vec<Reply>) {
        assert!(!replies.is_empty(), "a session needs at least one reply");
        self.respond_with(model, move |request| replies[(request.turn() - 1).min(replies.len() - 1)].clone());
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    /// How many requests arrived so far.
    pub fn request_count(&self) -> usize {
        self.shared.lock().requests.len()
    }

    /// The most requests in flight at once so far.
    pub fn max_in_flight(&self) -> usize {
        self.shared.lock().max_in_flight
    }

    /// Forgets the recorded requests and the in-flight maximum (scripts stay).
    pub fn clear_requests(&self) {
        let mut state = self.shared.lock();
        state.requests.clear();
        state.max_in_flight = 0;
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn openai(State(shared): State<Arc<Shared>>, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    handle(shared, Api::Openai, uri, headers, body).await
}

async fn anthropic(State(shared): State<Arc<Shared>>, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    handle(shared, Api::Anthropic, uri, headers, body).await
}

/// Counts a request out when its handler ends, also when the client hangs up.
struct InFlight(Arc<Shared>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn handle(shared: Arc<Shared>, api: Api, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    let in_flight = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    let _in_flight = InFlight(shared.clone());
    let raw_body = String::from_utf8_lossy(&body).into_owned();
    let request = RecordedRequest {
        api,
        path: uri.path().to_owned(),
        headers: headers
            .iter()
            .map(|(name, value)| (name.as_str().to_owned(), String::from_utf8_lossy(value.as_bytes()).into_owned()))
            .collect(),
        body: serde_json::from_str(&raw_body).unwrap_or(serde_json::Value::Null),
        raw_body,
        received: Instant::now(),
        in_flight,
    };
    let model = request.model().unwrap_or_default().to_owned();
    if let Err(message) = record::check_tool_protocol(api, &request.body) {
        shared.lock().requests.push(request);
        return (StatusCode::BAD_REQUEST, [(header::CONTENT_TYPE, "application/json")], reply::error_body(api, 400, &message).to_string())
            .into_response();
    }
    let picked = {
        let mut state = shared.lock();
        state.max_in_flight = state.max_in_flight.max(in_flight);
        state.requests.push(request.clone());
        next_reply(&mut state, &model)
    };
    // The responder runs outside the lock, so it may take its time.
    let mut reply = match picked {
        Some(Picked::Reply(reply)) => reply,
        Some(Picked::Respond(responder)) => responder(&request),
        None => {
            let message = format!("testserver: no script for model `{model}` (script it, or `*`)");
            Reply::status(404).body(reply::error_body(api, 404, &message).to_string())
        }
    };
    let reply = loop {
        reply = match reply {
            Reply::Delay(delay, inner) => {
                tokio::time::sleep(delay).await;
                *inner
            }
            Reply::Held(gate, inner) => {
                while !gate.is_open() {
                    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                }
                *inner
            }
            reply => break reply,
        };
    };
    let rendered = reply::render(&reply, api, &model, request.prompt_text().chars().count(), request.turn());
    let status = StatusCode::from_u16(rendered.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, [(header::CONTENT_TYPE, "application/json")], rendered.body).into_response();
    if let Some(seconds) = rendered.retry_after {
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

enum Picked {
    Reply(Reply),
    Respond(Responder),
}

fn next_reply(state: &mut ServerState, model: &str) -> Option<Picked> {
    let key = match state.behaviours.get(model) {
        Some(Behaviour::Script(queue)) if queue.is_empty() => "*",
        Some(_) => model,
        None => "*",
    };
    let behaviour = state.behaviours.get_mut(key)?;
    match behaviour {
        Behaviour::Script(queue) if queue.len() > 1 => queue.pop_front().map(Picked::Reply),
        Behaviour::Script(queue) => queue.front().cloned().map(Picked::Reply),
        Behaviour::Respond(responder) => Some(Picked::Respond(responder.clone())),
    }
}
