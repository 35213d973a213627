//! The embedded local model (`local:smollm2-135m`) with the real GGUF.
//!
//! The model file comes from `scripts/fetch-local-model`. Without it these
//! tests fail, unless `MODLEARN_SKIP_LOCAL_MODEL=1`, which skips them.
//! SmolLM2-135M cannot write working mods, so only structure is checked.
#![cfg(feature = "local-model")]
#![allow(clippy::print_stderr)]

use modlearn_propose::{
    CompletionRequest, LOCAL_MODELS, LocalProposer, Message, ModelRef, ProposeError, Proposer, ProviderKind, Role, local_model_path,
};

fn smollm2() -> ModelRef {
    ModelRef::parse("local:smollm2-135m").expect("a valid model ref")
}

/// The proposer, or `None` (test skipped) when the model file is absent and
/// `MODLEARN_SKIP_LOCAL_MODEL=1`. Otherwise an absent file fails the test.
fn proposer() -> Option<LocalProposer> {
    let path = local_model_path();
    if !path.is_file() {
        if std::env::var("MODLEARN_SKIP_LOCAL_MODEL").as_deref() == Ok("1") {
            eprintln!("skipped: {} is absent and MODLEARN_SKIP_LOCAL_MODEL=1", path.display());
            return None;
        }
        panic!(
            "the local model file {} is missing: run `scripts/fetch-local-model` (or set MODLEARN_SKIP_LOCAL_MODEL=1 to skip these tests)",
            path.display()
        );
    }
    Some(LocalProposer::new(&smollm2()).expect("a local proposer"))
}

fn request(user: &str, max_tokens: u32, temperature: f32, seed: u64) -> CompletionRequest {
    CompletionRequest {
        model: smollm2(),
        messages: vec![
            Message { role: Role::System, content: "You are a concise JavaScript programmer.".to_owned() },
            Message { role: Role::User, content: user.to_owned() },
        ],
        max_tokens,
        temperature,
        seed,
    }
}

const ASK: &str = "Write a JavaScript function add(a, b) that returns a + b. Reply with only the code.";

#[tokio::test]
async fn greedy_completion_is_non_empty_and_repeatable() {
    let Some(proposer) = proposer() else { return };
    let req = request(ASK, 48, 0.0, 1);
    let first = proposer.complete(&req).await.expect("a completion");
    let second = proposer.complete(&req).await.expect("a second completion");

    assert!(!first.text.trim().is_empty(), "empty completion: {first:?}");
    assert_eq!(first.text, second.text, "greedy output differs between two calls");
    assert_eq!(first.usage, second.usage);

    assert!(first.usage.input_tokens > 0, "{:?}", first.usage);
    assert!(first.usage.output_tokens > 0 && first.usage.output_tokens <= 48, "{:?}", first.usage);
    assert_eq!(first.cost_usd, 0.0);
    assert!(!first.cached);
    assert_eq!(first.attempts.len(), 1);
    assert_eq!(first.attempts[0].status, None);
    assert_eq!(first.attempts[0].error, None);
    assert_eq!(first.attempts[0].latency_ms, first.latency_ms);
    // The second call runs on the loaded model: report its speed.
    eprintln!(
        "local:smollm2-135m: {} prompt + {} generated tokens in {} ms ({:.0} generated tok/s, prompt included)\n{}",
        second.usage.input_tokens,
        second.usage.output_tokens,
        second.latency_ms,
        second.usage.output_tokens as f64 * 1000.0 / second.latency_ms.max(1) as f64,
        second.text
    );
}

#[tokio::test]
async fn seeded_sampling_is_reproducible_and_respects_max_tokens() {
    let Some(proposer) = proposer() else { return };
    let req = request(ASK, 16, 0.8, 42);
    let first = proposer.complete(&req).await.expect("a completion");
    let second = proposer.complete(&req).await.expect("a second completion");
    assert_eq!(first.text, second.text, "same seed, different text");
    assert!(first.usage.output_tokens > 0 && first.usage.output_tokens <= 16, "{:?}", first.usage);
}

#[tokio::test]
async fn a_conversation_with_every_role_goes_through_the_chat_template() {
    let Some(proposer) = proposer() else { return };
    let mut req = request(ASK, 24, 0.0, 0);
    req.messages.push(Message { role: Role::Assistant, content: "function add(a, b) { return a + b; }".to_owned() });
    req.messages.push(Message { role: Role::User, content: "Now write sub(a, b). Reply with only the code.".to_owned() });
    let completion = proposer.complete(&req).await.expect("a completion");
    assert!(!completion.text.trim().is_empty(), "{completion:?}");
    let single = proposer.complete(&request(ASK, 24, 0.0, 0)).await.expect("a completion");
    assert!(completion.usage.input_tokens > single.usage.input_tokens, "{:?} vs {:?}", completion.usage, single.usage);
}

#[test]
fn unknown_local_model_is_a_config_error() {
    let model = ModelRef::parse("local:llama-70b").expect("a valid model ref");
    match LocalProposer::new(&model) {
        Err(ProposeError::Config(message)) => {
            assert!(message.contains("llama-70b"), "{message}");
            assert!(message.contains("local:smollm2-135m"), "{message}");
        }
        other => panic!("expected a config error, got {other:?}"),
    }
    let not_local = ModelRef { provider: ProviderKind::Openai, name: "smollm2-135m".to_owned() };
    assert!(matches!(LocalProposer::new(&not_local), Err(ProposeError::Config(_))));
    assert_eq!(LOCAL_MODELS, &["smollm2-135m"]);
}

#[test]
fn model_path_follows_modlearn_model_dir() {
    let path = local_model_path();
    assert_eq!(path.file_name().and_then(|name| name.to_str()), Some("SmolLM2-135M-Instruct.Q4_1.gguf"));
    if let Some(dir) = std::env::var_os("MODLEARN_MODEL_DIR").filter(|dir| !dir.is_empty()) {
        assert_eq!(path.parent(), Some(std::path::Path::new(&dir)));
    } else {
        assert!(path.ends_with("modlearn/models/SmolLM2-135M-Instruct.Q4_1.gguf"), "{}", path.display());
    }
}
